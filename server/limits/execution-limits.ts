import type { AppDeps } from "../context.ts";
import { AppError } from "../errors.ts";
import { type BucketState, consumeToken, peekBucket } from "./token-bucket.ts";
import { getCurrentPeriodCost } from "./usage.ts";

export type ExecutionMode = "sync" | "async";

/** The `limits` object of the logs API (spec 2.2); schema: `limitsSchema` in contract/usage/schemas.ts. */
export type Limits = {
  workflowExecutionRateLimit: { sync: BucketState; async: BucketState };
  usage: { currentPeriodCost: number; limit: number; plan: string; isExceeded: boolean };
};

type LimitsDeps = Pick<AppDeps, "db" | "clock" | "license">;

const bucketKey = (mode: ExecutionMode, userId: string) => `${mode}:${userId}`;

/** The user's execution buckets and period usage. Only peeks: reading limits spends no token. */
export async function getLimits(deps: LimitsDeps, userId: string): Promise<Limits> {
  const { limits, plan } = deps.license;
  const [sync, async, currentPeriodCost] = await Promise.all([
    peekBucket(deps, bucketKey("sync", userId), limits.sync),
    peekBucket(deps, bucketKey("async", userId), limits.async),
    getCurrentPeriodCost(deps, userId),
  ]);
  return {
    workflowExecutionRateLimit: { sync, async },
    usage: {
      currentPeriodCost,
      limit: limits.usageLimitUsd,
      plan,
      isExceeded: currentPeriodCost >= limits.usageLimitUsd,
    },
  };
}

/** Refuses a new execution with 402 once the period's cost has reached the license's usage limit. */
export async function assertWithinUsageLimit(deps: LimitsDeps, userId: string): Promise<void> {
  const limit = deps.license.limits.usageLimitUsd;
  const cost = await getCurrentPeriodCost(deps, userId);
  if (cost >= limit) {
    throw new AppError(
      402,
      "USAGE_LIMIT_EXCEEDED",
      `Usage limit reached: ${formatUsd(cost)} spent of ${formatUsd(limit)} this billing period (${deps.license.plan} plan)`,
      { currentPeriodCost: cost, limit, plan: deps.license.plan },
    );
  }
}

/** Spends one token of the user's sync or async execution bucket; 429 + Retry-After when empty. */
export async function takeExecutionToken(deps: LimitsDeps, userId: string, mode: ExecutionMode): Promise<void> {
  const limit = deps.license.limits[mode];
  const result = await consumeToken(deps, bucketKey(mode, userId), limit);
  if (result.allowed) return;
  const secs = result.retryAfterSeconds;
  throw new AppError(
    429,
    "RATE_LIMITED",
    `${mode === "sync" ? "Synchronous" : "Asynchronous"} execution rate limit exceeded ` +
      `(${limit.requestsPerMinute} per minute, burst ${limit.maxBurst}); retry in ${secs} s`,
    { retryAfterSeconds: secs, bucket: mode },
    { "Retry-After": String(secs) },
  );
}

function formatUsd(n: number): string {
  return `$${n.toFixed(n < 1 ? 4 : 2)}`;
}
