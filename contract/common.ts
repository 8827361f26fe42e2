import { z } from "zod";

/** The one error envelope every failure answers with. */
export const errorEnvelopeSchema = z
  .object({
    error: z.string().describe("Human-readable message"),
    code: z.string().describe("Machine-readable code, e.g. INVALID_PARAMETER, UNAUTHORIZED, NOT_FOUND"),
    details: z.unknown().optional(),
    requestId: z.string(),
  })
  .meta({ id: "ErrorEnvelope" });

export const isoTimestamp = z.string().describe("ISO 8601 timestamp");

/** limit/offset pagination for admin lists. */
export const offsetPagination = {
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
};

export const paginationOutput = z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int() });

/** Booleans in query strings: `true`/`false` (also `1`/`0`). */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");
