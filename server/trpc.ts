import { initTRPC, TRPCError } from "@trpc/server";
import type { ProcedureMeta } from "../contract/define.ts";
import type { RequestContext, UserContext } from "./context.ts";
import { AppError } from "./errors.ts";
import { toAppError } from "./http/error-mapping.ts";
import { secretsEqual } from "./security/constant-time.ts";
import { authenticateRequest } from "./services/auth/authenticate-request.ts";

export type Meta = ProcedureMeta;

const t = initTRPC
  .context<RequestContext>()
  .meta<Meta>()
  .create({
    // The tRPC transport carries the same envelope as REST in `data.envelope`; no stack traces.
    errorFormatter({ shape, error, ctx }) {
      const appError = toAppError(error);
      const requestId = ctx?.requestId ?? "unknown";
      return {
        message: appError.message,
        code: shape.code,
        data: {
          code: shape.data.code,
          httpStatus: appError.status,
          path: shape.data.path,
          envelope: {
            error: appError.message,
            code: appError.code,
            ...(appError.details === undefined ? {} : { details: appError.details }),
            requestId,
          },
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Domain errors become tRPC errors of the matching code, so the tRPC transport answers with the
 * right HTTP status and error code; the AppError stays the cause for the envelope.
 */
export const publicProcedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: trpcCodeFor(cause.status), message: cause.message, cause });
  }
  return result;
});

const CODE_BY_STATUS: Record<number, TRPCError["code"]> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

function trpcCodeFor(status: number): TRPCError["code"] {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
}

/**
 * Resolves `x-api-key` (any case) to its user; 401 when missing or unknown. authenticateRequest sets
 * the actor on the context in place, so only the type is narrowed here: `next({ ctx })` would copy
 * the whole context into a new object on every request.
 */
export const apiKeyProcedure = publicProcedure.use(async ({ ctx, next }) => {
  await authenticateRequest(ctx);
  return next() as unknown as ReturnType<typeof next<Pick<UserContext, "actor">>>;
});

/** Admin API: `x-admin-key` compared in constant time; 503 when no admin key is configured. */
export const adminProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const configured = ctx.config.adminApiKey;
  if (!configured) {
    throw new AppError(503, "NOT_CONFIGURED", "The admin API is disabled: ADMIN_API_KEY is not set");
  }
  const given = ctx.headers.get("x-admin-key");
  if (!given || !secretsEqual(given, configured)) {
    throw new AppError(401, "UNAUTHORIZED", "Missing or invalid admin key (x-admin-key)");
  }
  return next({ ctx: { ...ctx, actor: { type: "admin" as const } } });
});

export { TRPCError };
