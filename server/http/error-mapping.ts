import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { AppError } from "../errors.ts";

type ZodLikeIssue = { path: PropertyKey[]; message: string; code?: string };

function isZodError(e: unknown): e is Error & { issues: ZodLikeIssue[] } {
  return e instanceof Error && e.name === "ZodError" && Array.isArray((e as { issues?: unknown }).issues);
}

/** Maps any thrown value to a domain error. Unknown errors become a generic 500, their message hidden. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof AppError) return error.cause;
    if (error.code === "BAD_REQUEST" && isZodError(error.cause)) return validationError(error.cause.issues);
    if (error.code === "PARSE_ERROR") return new AppError(400, "INVALID_JSON", "The request body is not valid JSON");
    if (error.code === "INTERNAL_SERVER_ERROR") return internalError();
    const status = getHTTPStatusCodeFromError(error);
    return new AppError(status, error.code, error.message);
  }
  return internalError();
}

function internalError(): AppError {
  return new AppError(500, "INTERNAL_ERROR", "Internal server error");
}

/** 400 naming each invalid parameter. */
export function validationError(issues: ZodLikeIssue[]): AppError {
  const details = issues.map((i) => ({ parameter: i.path.map(String).join(".") || "(body)", message: i.message }));
  const names = [...new Set(details.map((d) => d.parameter))];
  const first = details[0];
  const message =
    names.length === 1
      ? `Invalid parameter "${first.parameter}": ${first.message}`
      : `Invalid parameters: ${names.map((n) => `"${n}"`).join(", ")}`;
  return new AppError(400, "INVALID_PARAMETER", message, details);
}
