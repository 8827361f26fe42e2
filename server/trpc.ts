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
export const publicProcedure = t.procedure;

/** Resolves `x-api-key` (any case) to its user; 401 when missing or unknown. */
export const apiKeyProcedure = t.procedure.use(async ({ ctx, next }) => next({ ctx: await authenticateRequest(ctx) }));

/** Admin API: `x-admin-key` compared in constant time; 503 when no admin key is configured. */
export const adminProcedure = t.procedure.use(async ({ ctx, next }) => {
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
