import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { executionDetailsSchema } from "./schemas.ts";

export const getExecution = defineProcedure({
  meta: {
    openapi: {
      method: "GET",
      path: "/api/v1/logs/executions/{executionId}",
      tags: ["logs"],
      summary: "A completed execution with the deployed workflow snapshot it ran",
    },
  },
  input: z.object({ executionId: z.string().min(1) }),
  output: executionDetailsSchema,
});
