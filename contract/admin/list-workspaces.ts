import { z } from "zod";
import { offsetPagination, paginationOutput } from "../common.ts";
import { defineProcedure } from "../define.ts";
import { workspaceSchema } from "./schemas.ts";

export const listWorkspaces = defineProcedure({
  meta: {
    auth: "admin",
    openapi: { method: "GET", path: "/api/v1/admin/workspaces", tags: ["admin"], summary: "List workspaces, oldest first" },
  },
  input: z.object(offsetPagination),
  output: z.object({ data: z.array(workspaceSchema), pagination: paginationOutput }),
});
