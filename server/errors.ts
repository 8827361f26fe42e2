/**
 * Domain errors. Services throw these; each transport maps them once to its status and to the
 * one error envelope `{error, code, details?, requestId}`. Anything else is an internal error whose
 * message is never shown.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, details?: unknown, code = "BAD_REQUEST") =>
  new AppError(400, code, message, details);
export const invalidParameter = (name: string, message: string) =>
  new AppError(400, "INVALID_PARAMETER", `Invalid parameter "${name}": ${message}`, { parameter: name });
export const unauthorized = (message = "Missing or invalid API key") => new AppError(401, "UNAUTHORIZED", message);
export const forbidden = (message = "You do not have access to this resource") =>
  new AppError(403, "FORBIDDEN", message);
export const notFound = (what: string) => new AppError(404, "NOT_FOUND", `${what} not found`);
export const conflict = (message: string) => new AppError(409, "CONFLICT", message);

export type ErrorEnvelope = { error: string; code: string; details?: unknown; requestId: string };

export function envelope(err: AppError, requestId: string): ErrorEnvelope {
  return err.details === undefined
    ? { error: err.message, code: err.code, requestId }
    : { error: err.message, code: err.code, details: err.details, requestId };
}
