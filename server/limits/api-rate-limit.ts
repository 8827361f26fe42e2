import type { UserContext } from "../context.ts";
import { AppError } from "../errors.ts";
import type { BucketLimit } from "./plans.ts";
import type { BucketState } from "./token-bucket.ts";

/**
 * Spends one token of the caller's API bucket (`api:<userId>`, spec 8.1 plan table or the license).
 * Every answer carries the rate-limit headers; an empty bucket answers 429 with Retry-After.
 */
export async function enforceApiRateLimit(ctx: UserContext): Promise<void> {
  const limit = ctx.license.limits.api;
  const result = await ctx.tokens.consume(ctx, `api:${ctx.actor.userId}`, limit);
  const headers = rateLimitHeaders(limit, result, ctx.clock.now());
  for (const [name, value] of Object.entries(headers)) ctx.resHeaders.set(name, value);
  if (!result.allowed) {
    const secs = result.retryAfterSeconds;
    throw new AppError(
      429,
      "RATE_LIMITED",
      `API rate limit exceeded (${limit.requestsPerMinute} requests per minute, burst ${limit.maxBurst}); retry in ${secs} s`,
      { retryAfterSeconds: secs },
      { "Retry-After": String(secs), ...headers },
    );
  }
}

/**
 * The headers describing a bucket (docs/rate-limits.md). X-RateLimit-Limit is the refill rate as the
 * spec defines it; the IETF draft headers state the burst, so Remaining never looks larger than Limit.
 */
export function rateLimitHeaders(limit: BucketLimit, state: BucketState, now: number): Record<string, string> {
  const window = Math.ceil((limit.maxBurst * 60) / limit.requestsPerMinute);
  const reset = Math.max(0, Math.ceil((Date.parse(state.resetAt) - now) / 1000));
  return {
    "X-RateLimit-Limit": String(limit.requestsPerMinute),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": state.resetAt,
    "RateLimit-Policy": `${limit.maxBurst};w=${window}`,
    RateLimit: `limit=${limit.maxBurst}, remaining=${state.remaining}, reset=${reset}`,
  };
}
