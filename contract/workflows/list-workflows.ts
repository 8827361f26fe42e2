import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { workflowSummarySchema } from "./schemas.ts";

export const listWorkflows = defineProcedure({
  meta: {
    openapi: {
      method: "GET",
      path: "/api/workflows",
      tags: ["workflows"],
      summary: "List the workflows of a workspace, oldest first, without their state (read permission)",
    },
  },
  input: z.object({
    workspaceId: z.string().min(1),
    folderId: z.string().min(1).optional().describe("Only the workflows directly in this folder"),
  }),
  output: z.object({ data: z.array(workflowSummarySchema) }),
});
