import { z } from "zod";
import { isoTimestamp } from "../common.ts";

export const folderSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    parentId: z.string().nullable().describe("The enclosing folder; null at the top level"),
    name: z.string(),
    createdAt: isoTimestamp,
  })
  .meta({ id: "Folder" });

export type Folder = z.infer<typeof folderSchema>;
