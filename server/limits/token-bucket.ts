import { eq, sql } from "drizzle-orm";
import type { AppDeps } from "../context.ts";
import { rateLimitBuckets as t } from "../db/schema/index.ts";
import type { BucketLimit } from "./plans.ts";

/** A bucket as callers see it (spec 2.1); see docs/rate-limits.md for `resetAt`. */
export type BucketState = { requestsPerMinute: number; maxBurst: number; remaining: number; resetAt: string };

export type ConsumeResult = BucketState & { allowed: boolean; retryAfterSeconds: number };

type BucketDeps = Pick<AppDeps, "db" | "clock">;

const MS_PER_MINUTE = 60_000;
const TOKEN_PRECISION = 1e-9;

/**
 * Takes one token from bucket `key`, refilling it first for the time elapsed since its last update.
 * One INSERT ... ON CONFLICT DO UPDATE ... RETURNING statement: the read, the refill and the spend
 * happen atomically in the database, so processes sharing it can never spend the same token twice.
 * A bucket seen for the first time starts full.
 */
export async function consumeToken(deps: BucketDeps, key: string, limit: BucketLimit): Promise<ConsumeResult> {
  const now = Math.floor(deps.clock.now());
  const { requestsPerMinute: rate, maxBurst } = limit;
  // SET expressions all see the row as it was before the update. A clock that went backwards
  // (elapsed < 0, or another process's clock ahead of ours) refills nothing and keeps the later time.
  // Rounding to 1e-9 stops float noise from making 0.3 + 0.7 tokens fall short of one token.
  const refilled = sql`min(${maxBurst}, round(${t.tokens} + (max(0, ${now} - ${t.updatedAt}) * ${rate}) / 60000.0, 9))`;
  const firstAllowed = maxBurst >= 1;
  const [row] = await deps.db
    .insert(t)
    .values({
      key,
      tokens: firstAllowed ? maxBurst - 1 : maxBurst,
      updatedAt: now,
      lastAllowed: firstAllowed ? 1 : 0,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        tokens: sql`case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end`,
        updatedAt: sql`max(${t.updatedAt}, ${now})`,
        lastAllowed: sql`case when ${refilled} >= 1 then 1 else 0 end`,
      },
    })
    .returning({ tokens: t.tokens, updatedAt: t.updatedAt, lastAllowed: t.lastAllowed });
  const state = describeBucket(limit, row.tokens, Math.max(row.updatedAt, now), now);
  const allowed = row.lastAllowed === 1;
  const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil(msUntil(row.tokens, 1, rate) / 1000));
  return { ...state, allowed, retryAfterSeconds };
}

/** The bucket as it stands now, without taking a token or writing anything. */
export async function peekBucket(deps: BucketDeps, key: string, limit: BucketLimit): Promise<BucketState> {
  const now = Math.floor(deps.clock.now());
  const row = await deps.db
    .select({ tokens: t.tokens, updatedAt: t.updatedAt })
    .from(t)
    .where(eq(t.key, key))
    .get();
  if (!row) return describeBucket(limit, limit.maxBurst, now, now);
  const elapsed = Math.max(0, now - row.updatedAt);
  const tokens = Math.min(limit.maxBurst, round9(row.tokens + (elapsed * limit.requestsPerMinute) / MS_PER_MINUTE));
  return describeBucket(limit, tokens, Math.max(row.updatedAt, now), now);
}

/**
 * `tokens` is the bucket's content as of `asOf` (never before `now`). resetAt is when the next whole
 * token arrives; for a full bucket, one refill interval from now (when a token spent now comes back).
 */
function describeBucket(limit: BucketLimit, tokens: number, asOf: number, now: number): BucketState {
  const { requestsPerMinute: rate, maxBurst } = limit;
  const full = tokens >= maxBurst;
  const target = Math.min(maxBurst, Math.floor(tokens) + 1);
  const resetMs = full ? now + MS_PER_MINUTE / rate : asOf + msUntil(tokens, target, rate);
  return {
    requestsPerMinute: rate,
    maxBurst,
    remaining: Math.max(0, Math.floor(tokens)),
    resetAt: new Date(Math.ceil(resetMs)).toISOString(),
  };
}

/**
 * Milliseconds of refill needed to grow from `tokens` to `target`. Stored buckets are rounded to
 * 1e-9 tokens; the same slack here keeps 1/3 token short of one from waiting 4000.000002 ms (5 s).
 */
function msUntil(tokens: number, target: number, rate: number): number {
  return Math.max(0, ((target - tokens - TOKEN_PRECISION) * MS_PER_MINUTE) / rate);
}

function round9(x: number): number {
  return Math.round(x / TOKEN_PRECISION) * TOKEN_PRECISION;
}
