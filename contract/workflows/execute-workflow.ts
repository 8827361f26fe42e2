import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { asyncExecutionResponseSchema, executionResponseSchema } from "./schemas.ts";

/**
 * REST callers send the workflow input as the whole JSON body, or as `{input: {...}}`; the REST
 * path is served by a raw-body route so that an input key named `id` is not replaced by the path
 * parameter. tRPC callers send `{id, input}`.
 */
export const executeWorkflow = defineProcedure({
  meta: {
    openapi: {
      method: "POST",
      path: "/api/workflows/{id}/execute",
      tags: ["workflows"],
      summary: "Run the deployed version now and answer with its result, or queue it (write permission)",
      description:
        "The body is the workflow input object, or {input: {...}} (an object whose only key is `input`, " +
        "optionally with `async`); an empty body is the input {}. The HTTP status and headers come from the " +
        "response block; a failed run answers a non-2xx status with success false. With the header " +
        "`X-Execution-Mode: async` or the body {input, async: true} the run is queued instead: 202 with a jobId " +
        "and a statusUrl (GET /api/jobs/{jobId}).",
    },
  },
  input: z
    .looseObject({
      id: z.string().min(1),
      input: z.unknown().optional(),
      async: z.boolean().optional(),
    })
    .describe("The workflow input object, or {input}"),
  output: z.union([executionResponseSchema, asyncExecutionResponseSchema]),
});
