import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { workflowSchema, workflowStateSchema } from "./schemas.ts";

export const createWorkflow = defineProcedure({
  meta: {
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/api/workflows",
      tags: ["workflows"],
      summary: "Create a workflow (write permission); the state is validated",
    },
  },
  input: z.object({
    workspaceId: z.string().min(1),
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    folderId: z.string().min(1).nullish().describe("A folder of the same workspace"),
    state: workflowStateSchema,
  }),
  output: z.object({ data: workflowSchema }),
});
