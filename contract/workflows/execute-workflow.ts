import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { executionResponseSchema } from "./schemas.ts";

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
      summary: "Run the deployed version now and answer with its result (write permission)",
      description:
        "The body is the workflow input object, or {input: {...}} (an object whose only key is `input`); " +
        "an empty body is the input {}. The HTTP status and headers come from the response block; a failed " +
        "run answers a non-2xx status with success false.",
    },
  },
  input: z
    .looseObject({
      id: z.string().min(1),
      input: z.unknown().optional(),
    })
    .describe("The workflow input object, or {input}"),
  output: executionResponseSchema,
});
