import { z } from "zod";
import { executionResponseSchema } from "../workflows/schemas.ts";
import { defineProcedure } from "../define.ts";

export const runWorkflow = defineProcedure({
  meta: {
    auth: "admin",
    openapi: {
      method: "POST",
      path: "/api/v1/admin/workflows/{id}/run",
      tags: ["admin"],
      summary: "Run a workflow's deployed version by hand (trigger manual; billed to the workspace owner, not rate limited)",
      description:
        "The run's result comes back with 200 whether it succeeded or not (see `success`); the workflow's " +
        "response block does not set this endpoint's status.",
    },
  },
  input: z.object({ id: z.string().min(1), input: z.unknown().optional() }),
  output: executionResponseSchema,
});
