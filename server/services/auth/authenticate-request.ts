import type { RequestContext, UserContext } from "../../context.ts";
import { AppError } from "../../errors.ts";
import { authenticateApiKey } from "./authenticate-api-key.ts";

/**
 * Resolves the request's `x-api-key` (any header case) to its user and records it as the actor on
 * the request context; 401 when the key is missing or unknown.
 */
export async function authenticateRequest(ctx: RequestContext): Promise<UserContext> {
  if (ctx.actor.type === "user") return ctx as UserContext;
  const key = ctx.headers.get("x-api-key");
  if (!key) throw new AppError(401, "UNAUTHORIZED", "Missing API key: send it in the x-api-key header");
  const found = await authenticateApiKey({ ctx, key });
  if (!found) throw new AppError(401, "UNAUTHORIZED", "Invalid API key");
  ctx.actor = { type: "user", authType: "api_key", ...found };
  return ctx as UserContext;
}
