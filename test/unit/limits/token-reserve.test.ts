import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import { peekBucket } from "../../../server/limits/token-bucket.ts";
import { RESERVE_TTL_MS, TokenReserves } from "../../../server/limits/token-reserve.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

const START = Date.UTC(2026, 0, 15, 12);
const LIMIT = { requestsPerMinute: 60, maxBurst: 200 };

describe("TokenReserves", () => {
  let temp: Awaited<ReturnType<typeof createTempDatabase>>;
  let clock: ManualClock;
  let deps: { db: typeof temp.database.db; clock: ManualClock };

  beforeEach(async () => {
    temp = await createTempDatabase();
    clock = new ManualClock(START);
    deps = { db: temp.database.db, clock };
  });
  afterEach(() => temp.cleanup());

  it("reports exactly one token less per call while holding tokens aside for a busy caller", async () => {
    const reserves = new TokenReserves();
    const remaining: number[] = [];
    for (let i = 0; i < 40; i++) remaining.push((await reserves.consume(deps, "k", LIMIT)).remaining);
    expect(remaining).toEqual(Array.from({ length: 40 }, (_, i) => 199 - i));
    // Some of the 160 remaining tokens sit in this process's reserve, out of the database.
    const stored = await peekBucket(deps, "k", LIMIT);
    expect(reserves.reserved("k")).toBeGreaterThan(0);
    expect(stored.remaining + reserves.reserved("k")).toBe(160);
  });

  it("never hands out more than the bucket holds across processes sharing the database", async () => {
    const a = new TokenReserves();
    const b = new TokenReserves();
    const limit = { requestsPerMinute: 1, maxBurst: 64 };
    let allowed = 0;
    for (let i = 0; i < 200; i++) {
      const reserves = i % 3 === 0 ? b : a;
      if ((await reserves.consume(deps, "k", limit)).allowed) allowed++;
    }
    expect(allowed).toBe(64);
    const refused = await a.consume(deps, "k", limit);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("puts unused tokens back once they are older than the reserve's lifetime", async () => {
    const reserves = new TokenReserves();
    const limit = { requestsPerMinute: 1, maxBurst: 200 };
    for (let i = 0; i < 10; i++) await reserves.consume(deps, "k", limit);
    const held = reserves.reserved("k");
    expect(held).toBeGreaterThan(0);
    clock.advance(RESERVE_TTL_MS);
    const result = await reserves.consume(deps, "k", limit);
    // 10 spent before, 1 now; the refill of one second at 1/min adds no whole token.
    expect(result.remaining).toBe(189);
    expect(reserves.reserved("k") + (await peekBucket(deps, "k", limit)).remaining).toBe(189);
  });

  it("takes one token at a time for a caller that is not busy", async () => {
    const reserves = new TokenReserves();
    for (let i = 0; i < 5; i++) {
      await reserves.consume(deps, "k", LIMIT);
      clock.advance(RESERVE_TTL_MS * 2);
    }
    expect(reserves.reserved("k")).toBe(0);
  });
});
