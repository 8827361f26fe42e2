import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { folderSchema } from "./schemas.ts";

export const listFolders = defineProcedure({
  meta: {
    openapi: {
      method: "GET",
      path: "/api/folders",
      tags: ["folders"],
      summary: "List the folders of a workspace, oldest first (read permission)",
    },
  },
  input: z.object({ workspaceId: z.string().min(1) }),
  output: z.object({ data: z.array(folderSchema) }),
});
