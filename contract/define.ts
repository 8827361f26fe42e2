import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";

export type ProcedureMeta = OpenApiMeta<{
  /** Status of a successful answer when it is not 200. */
  successStatus?: number;
  /** How callers authenticate (default apiKey); drives the OpenAPI security requirement. */
  auth?: "none" | "apiKey" | "admin";
}>;

export type ProcedureContract<I extends z.ZodType, O extends z.ZodType> = {
  meta: ProcedureMeta;
  input: I;
  output: O;
};

/** One REST/tRPC procedure: OpenAPI meta, zod input, zod output. */
export function defineProcedure<I extends z.ZodType, O extends z.ZodType>(
  contract: ProcedureContract<I, O>,
): ProcedureContract<I, O> {
  return contract;
}
