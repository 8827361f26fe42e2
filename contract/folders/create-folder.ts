import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { folderSchema } from "./schemas.ts";

export const createFolder = defineProcedure({
  meta: {
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/api/folders",
      tags: ["folders"],
      summary: "Create a folder in a workspace (write permission)",
    },
  },
  input: z.object({
    workspaceId: z.string().min(1),
    name: z.string().trim().min(1).max(200),
    parentId: z.string().min(1).nullish().describe("A folder of the same workspace to nest the new folder in"),
  }),
  output: z.object({ data: folderSchema }),
});
