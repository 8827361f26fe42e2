import { and, eq, sql } from "drizzle-orm";
import type { AppDeps } from "../context.ts";
import type { Db } from "../db/client.ts";
import { rateLimitBuckets, usagePeriods } from "../db/schema/index.ts";
import { AppError } from "../errors.ts";
import { type CompiledStatement, compileStatement, placeholder as p } from "../services/executions/compiled-statement.ts";
import { type BucketState, bucketStateAt, type StoredBucket } from "./token-bucket.ts";
import { billingPeriod, getCurrentPeriodCost, periodCost } from "./usage.ts";

export type ExecutionMode = "sync" | "async";

/** The `limits` object of the logs API (spec 2.2); schema: `limitsSchema` in contract/usage/schemas.ts. */
export type Limits = {
  workflowExecutionRateLimit: { sync: BucketState; async: BucketState };
  usage: { currentPeriodCost: number; limit: number; plan: string; isExceeded: boolean };
};

type LimitsDeps = Pick<AppDeps, "db" | "clock" | "license" | "tokens">;

const bucketKey = (mode: ExecutionMode, userId: string) => `${mode}:${userId}`;

// The logs API answers with the limits on every call: one statement, compiled once.
let readLimits: CompiledStatement | undefined;
const SYNC = 0;
const ASYNC = 1;
const USAGE = 2;

/**
 * Both execution buckets' rows and the period's usage row in one statement, each found through its
 * primary key: one result row `(which, tokens or cost, updatedAt)` per stored row.
 */
function compileReadLimits(db: Db): CompiledStatement {
  const t = rateLimitBuckets;
  const bucket = (which: number, key: string) =>
    db
      .select({ which: sql<number>`${sql.raw(String(which))}`, amount: t.tokens, updatedAt: t.updatedAt })
      .from(t)
      .where(eq(t.key, p(key)));
  const usage = db
    .select({ which: sql<number>`${sql.raw(String(USAGE))}`, amount: usagePeriods.cost, updatedAt: sql<number>`null` })
    .from(usagePeriods)
    .where(and(eq(usagePeriods.userId, p("userId")), eq(usagePeriods.period, p("period"))));
  return compileStatement(bucket(SYNC, "syncKey").unionAll(bucket(ASYNC, "asyncKey")).unionAll(usage));
}

/** The user's execution buckets and period usage. Only peeks: reading limits spends no token. */
export async function getLimits(deps: LimitsDeps, userId: string): Promise<Limits> {
  const { limits, plan } = deps.license;
  const now = deps.clock.now();
  readLimits ??= compileReadLimits(deps.db);
  const { rows } = await deps.db.$client.execute(
    readLimits({
      syncKey: bucketKey("sync", userId),
      asyncKey: bucketKey("async", userId),
      userId,
      period: billingPeriod(now),
    }),
  );
  // A bucket never used, or a period without runs, has no row.
  const buckets: [StoredBucket | null, StoredBucket | null] = [null, null];
  let cost: number | null = null;
  for (const row of rows) {
    if (row[0] === USAGE) cost = row[1] as number;
    else {
      const which = row[0] as typeof SYNC | typeof ASYNC;
      // Tokens this process holds aside are still the user's.
      const reserved = deps.tokens.reserved(bucketKey(which === SYNC ? "sync" : "async", userId));
      buckets[which] = { tokens: (row[1] as number) + reserved, updatedAt: row[2] as number };
    }
  }
  const bucketNow = Math.floor(now);
  const currentPeriodCost = periodCost(cost);
  return {
    workflowExecutionRateLimit: {
      sync: bucketStateAt(limits.sync, buckets[SYNC], bucketNow),
      async: bucketStateAt(limits.async, buckets[ASYNC], bucketNow),
    },
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
  const result = await deps.tokens.consume(deps, bucketKey(mode, userId), limit);
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

