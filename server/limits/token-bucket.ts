import { eq, sql } from "drizzle-orm";
import type { AppDeps } from "../context.ts";
import type { Db } from "../db/client.ts";
import { rateLimitBuckets as t } from "../db/schema/index.ts";
import { type CompiledStatement, compileStatement, placeholder as p } from "../services/executions/compiled-statement.ts";
import type { BucketLimit } from "./plans.ts";

/** A bucket as callers see it (spec 2.1); see docs/rate-limits.md for `resetAt`. */
export type BucketState = { requestsPerMinute: number; maxBurst: number; remaining: number; resetAt: string };

export type ConsumeResult = BucketState & { allowed: boolean; retryAfterSeconds: number };

/** A bucket's row as stored: its tokens as of `updatedAt` (epoch ms). */
export type StoredBucket = { tokens: number; updatedAt: number };

type BucketDeps = Pick<AppDeps, "db" | "clock">;

const MS_PER_MINUTE = 60_000;
const TOKEN_PRECISION = 1e-9;

// Every API call and execution spends a token: the statements are compiled once (the SQL text is
// the same for every database), each call only binds values.
let take: CompiledStatement | undefined;
let peek: CompiledStatement | undefined;

/** What one take statement did: tokens handed out and the bucket as left in the database. */
export type TakeResult = { taken: number; tokens: number; updatedAt: number };

/**
 * Takes up to `want` tokens (at least one when the bucket has one) from bucket `key`, after putting
 * back `giveBack` unused tokens and refilling for the time elapsed since its last update. One
 * INSERT ... ON CONFLICT DO UPDATE ... RETURNING statement: the read, the refill and the spend happen
 * atomically in the database, so processes sharing it never spend the same token twice. A bucket
 * seen for the first time starts full.
 */
export async function takeTokens(
  deps: BucketDeps,
  key: string,
  limit: BucketLimit,
  want = 1,
  giveBack = 0,
): Promise<TakeResult> {
  const now = Math.floor(deps.clock.now());
  const { requestsPerMinute: rate, maxBurst } = limit;
  const firstTaken = Math.max(0, Math.min(want, Math.floor(maxBurst)));
  take ??= compileTake(deps.db);
  const { rows } = await deps.db.$client.execute(
    take({ key, now, rate, maxBurst, want, giveBack, firstTokens: maxBurst - firstTaken, firstTaken }),
  );
  // The upsert always returns the one row it inserted or updated.
  return { tokens: rows[0][0] as number, updatedAt: rows[0][1] as number, taken: rows[0][2] as number };
}

/** Takes one token straight from the database (no reserve): see TokenReserves for the hot paths. */
export async function consumeToken(deps: BucketDeps, key: string, limit: BucketLimit): Promise<ConsumeResult> {
  const result = await takeTokens(deps, key, limit);
  return consumeResult(limit, result, 0, Math.floor(deps.clock.now()));
}

/** A take as the caller sees it: `reserved` tokens held aside still count as remaining. */
export function consumeResult(limit: BucketLimit, take: TakeResult, reserved: number, now: number): ConsumeResult {
  const allowed = take.taken > 0;
  // Served from a reserve, `take` is up to RESERVE_TTL_MS old: count the refill since.
  const refill = (Math.max(0, now - take.updatedAt) * limit.requestsPerMinute) / MS_PER_MINUTE;
  const tokens = Math.min(limit.maxBurst, round9(take.tokens + refill + reserved));
  const state = describeBucket(limit, tokens, Math.max(take.updatedAt, now), now);
  const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil(msUntil(take.tokens, 1, limit.requestsPerMinute) / 1000));
  return { ...state, allowed, retryAfterSeconds };
}

/** The bucket as it stands now, without taking a token or writing anything. */
export async function peekBucket(deps: BucketDeps, key: string, limit: BucketLimit): Promise<BucketState> {
  const now = Math.floor(deps.clock.now());
  peek ??= compileStatement(
    deps.db
      .select({ tokens: t.tokens, updatedAt: t.updatedAt })
      .from(t)
      .where(eq(t.key, p("key"))),
  );
  const { rows } = await deps.db.$client.execute(peek({ key }));
  const row = rows[0];
  return bucketStateAt(limit, row ? { tokens: row[0] as number, updatedAt: row[1] as number } : null, now);
}

/** A stored bucket (null: never used, so full) as it stands at `now`, refilled but not written back. */
export function bucketStateAt(limit: BucketLimit, stored: StoredBucket | null, now: number): BucketState {
  if (!stored) return describeBucket(limit, limit.maxBurst, now, now);
  const elapsed = Math.max(0, now - stored.updatedAt);
  const tokens = Math.min(limit.maxBurst, round9(stored.tokens + (elapsed * limit.requestsPerMinute) / MS_PER_MINUTE));
  return describeBucket(limit, tokens, Math.max(stored.updatedAt, now), now);
}

/** The upsert of `takeTokens`; `firstTokens` / `firstTaken` are what a new bucket starts with. */
function compileTake(db: Db): CompiledStatement {
  const now = p<number>("now");
  const maxBurst = p<number>("maxBurst");
  const rate = p<number>("rate");
  const want = p<number>("want");
  // SET expressions all see the row as it was before the update. A clock that went backwards
  // (elapsed < 0, or another process's clock ahead of ours) refills nothing and keeps the later time.
  // Rounding to 1e-9 stops float noise from making 0.3 + 0.7 tokens fall short of one token.
  const refilled = sql`min(${maxBurst}, round(${t.tokens} + ${p<number>("giveBack")} + (max(0, ${now} - ${t.updatedAt}) * ${rate}) / 60000.0, 9))`;
  const taken = sql`max(0, min(${want}, cast(${refilled} as integer)))`;
  return compileStatement(
    db
      .insert(t)
      .values({ key: p("key"), tokens: p("firstTokens"), updatedAt: now, lastAllowed: p("firstTaken") })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          tokens: sql`${refilled} - ${taken}`,
          updatedAt: sql`max(${t.updatedAt}, ${now})`,
          lastAllowed: taken,
        },
      })
      .returning({ tokens: t.tokens, updatedAt: t.updatedAt, lastAllowed: t.lastAllowed }),
  );
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
