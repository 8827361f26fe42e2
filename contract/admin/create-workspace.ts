import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { workspaceSchema } from "./schemas.ts";

export const createWorkspace = defineProcedure({
  meta: {
    auth: "admin",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/api/v1/admin/workspaces",
      tags: ["admin"],
      summary: "Create a workspace; its owner gets admin permission on it",
    },
  },
  input: z.object({ name: z.string().trim().min(1).max(200), ownerId: z.string().min(1) }),
  output: z.object({ data: workspaceSchema }),
});
