import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { workflowSchema, workflowStateSchema } from "./schemas.ts";

export const updateWorkflow = defineProcedure({
  meta: {
    openapi: {
      method: "PUT",
      path: "/api/workflows/{id}",
      tags: ["workflows"],
      summary: "Change a workflow's name, description, folder or state; omitted fields stay (write permission)",
    },
  },
  input: z.object({
    id: z.string().min(1),
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    folderId: z.string().min(1).nullable().optional().describe("null moves the workflow to the top level"),
    state: workflowStateSchema.optional(),
  }),
  output: z.object({ data: workflowSchema }),
});
