import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import { rateLimitBuckets } from "../../../server/db/schema/index.ts";
import { consumeToken, peekBucket } from "../../../server/limits/token-bucket.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

type Temp = Awaited<ReturnType<typeof createTempDatabase>>;

const START = Date.UTC(2026, 0, 15, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
// 10 per minute: one token every 6 s.
const LIMIT = { requestsPerMinute: 10, maxBurst: 20 };

describe("token bucket", () => {
  let temp: Temp;
  let clock: ManualClock;
  let deps: { db: Temp["database"]["db"]; clock: ManualClock };

  beforeEach(async () => {
    temp = await createTempDatabase();
    clock = new ManualClock(START);
    deps = { db: temp.database.db, clock };
  });
  afterEach(() => temp.cleanup());

  const drain = async (key: string, n: number) => {
    for (let i = 0; i < n; i++) expect((await consumeToken(deps, key, LIMIT)).allowed).toBe(true);
  };

  it("starts full: a new bucket is peeked at maxBurst and the first consume leaves maxBurst - 1", async () => {
    expect(await peekBucket(deps, "k", LIMIT)).toEqual({
      requestsPerMinute: 10,
      maxBurst: 20,
      remaining: 20,
      resetAt: iso(START + 6_000),
    });
    const first = await consumeToken(deps, "k", LIMIT);
    expect(first).toEqual({
      requestsPerMinute: 10,
      maxBurst: 20,
      remaining: 19,
      resetAt: iso(START + 6_000),
      allowed: true,
      retryAfterSeconds: 0,
    });
  });

  it("consumes one token per call and refuses when empty, with Retry-After until the next token", async () => {
    for (let i = 19; i >= 0; i--) {
      const r = await consumeToken(deps, "k", LIMIT);
      expect(r).toMatchObject({ allowed: true, remaining: i, retryAfterSeconds: 0 });
    }
    const refused = await consumeToken(deps, "k", LIMIT);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 6, resetAt: iso(START + 6_000) });
    // Partway through the interval the wait shrinks, rounded up to whole seconds.
    clock.advance(2_000); // 1/3 token: 4 s to go, not 4.000000002 s
    expect(await consumeToken(deps, "k", LIMIT)).toMatchObject({ allowed: false, retryAfterSeconds: 4 });
    clock.advance(2_500);
    const later = await consumeToken(deps, "k", LIMIT);
    expect(later).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 2, resetAt: iso(START + 6_000) });
  });

  it("refills continuously at requestsPerMinute (fractions accumulate)", async () => {
    await drain("k", 20);
    clock.advance(3_000); // half a token
    expect((await consumeToken(deps, "k", LIMIT)).allowed).toBe(false);
    clock.advance(3_000); // the other half: one whole token
    expect(await consumeToken(deps, "k", LIMIT)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await consumeToken(deps, "k", LIMIT)).allowed).toBe(false);
    clock.advance(60_000); // 10 tokens
    expect(await peekBucket(deps, "k", LIMIT)).toMatchObject({ remaining: 10 });
  });

  it("never holds more than maxBurst however long it idles", async () => {
    await drain("k", 5);
    clock.advance(24 * 3_600_000);
    expect(await peekBucket(deps, "k", LIMIT)).toEqual({
      requestsPerMinute: 10,
      maxBurst: 20,
      remaining: 20,
      resetAt: iso(clock.now() + 6_000),
    });
    expect(await consumeToken(deps, "k", LIMIT)).toMatchObject({ allowed: true, remaining: 19 });
  });

  it("adds nothing when the clock goes backwards, and does not rewind the bucket's time", async () => {
    await drain("k", 20);
    clock.advance(-3_600_000);
    expect(await consumeToken(deps, "k", LIMIT)).toMatchObject({ allowed: false, remaining: 0 });
    const row = await deps.db.select().from(rateLimitBuckets).get();
    expect(row).toMatchObject({ tokens: 0, updatedAt: START, lastAllowed: 0 });
    // Back at the original time plus 6 s: exactly one token, not one hour's worth.
    clock.set(START + 6_000);
    expect(await consumeToken(deps, "k", LIMIT)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await consumeToken(deps, "k", LIMIT)).allowed).toBe(false);
  });

  it("keeps buckets apart by key", async () => {
    await drain("a", 20);
    expect((await consumeToken(deps, "a", LIMIT)).allowed).toBe(false);
    expect(await consumeToken(deps, "b", LIMIT)).toMatchObject({ allowed: true, remaining: 19 });
  });

  it("peek does not consume and writes nothing", async () => {
    for (let i = 0; i < 5; i++) expect((await peekBucket(deps, "k", LIMIT)).remaining).toBe(20);
    expect(await deps.db.select().from(rateLimitBuckets).all()).toEqual([]);
    await consumeToken(deps, "k", LIMIT);
    for (let i = 0; i < 5; i++) expect((await peekBucket(deps, "k", LIMIT)).remaining).toBe(19);
  });

  it("reports resetAt as the time of the next whole token", async () => {
    await drain("k", 20);
    clock.advance(1_000);
    expect(await peekBucket(deps, "k", LIMIT)).toMatchObject({ remaining: 0, resetAt: iso(START + 6_000) });
    clock.advance(6_000); // 7 s since empty: 1.1666 tokens, the next whole one at 12 s
    expect(await peekBucket(deps, "k", LIMIT)).toMatchObject({ remaining: 1, resetAt: iso(START + 12_000) });
  });

  it("shares one bucket between two database clients on the same file without double spending", async () => {
    const other = await temp.open();
    const depsB = { db: other.db, clock };
    const limit = { requestsPerMinute: 1, maxBurst: 15 };
    const attempts = Array.from({ length: 40 }, (_, i) => consumeToken(i % 2 ? depsB : deps, "shared", limit));
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r.allowed)).toHaveLength(15);
    expect(results.filter((r) => !r.allowed)).toHaveLength(25);
    // Each allowed call saw a different remaining count: no token was handed out twice.
    const remainders = results.filter((r) => r.allowed).map((r) => r.remaining);
    expect(new Set(remainders).size).toBe(15);
    expect(await peekBucket(depsB, "shared", limit)).toMatchObject({ remaining: 0 });
  });

  it("a bucket with no burst starts empty and refuses every call", async () => {
    const none = { requestsPerMinute: 10, maxBurst: 0 };
    for (let i = 0; i < 2; i++) {
      expect(await consumeToken(deps, "zero", none)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 6 });
    }
    clock.advance(60_000);
    expect((await consumeToken(deps, "zero", none)).allowed).toBe(false);
    expect(await deps.db.select().from(rateLimitBuckets).all()).toEqual([
      { key: "zero", tokens: 0, updatedAt: START + 60_000, lastAllowed: 0 },
    ]);
  });

  it("applies a changed limit to an existing bucket (a smaller burst caps what is stored)", async () => {
    await consumeToken(deps, "k", LIMIT); // 19 left
    const smaller = { requestsPerMinute: 10, maxBurst: 5 };
    expect(await consumeToken(deps, "k", smaller)).toMatchObject({ allowed: true, remaining: 4, maxBurst: 5 });
  });
});
