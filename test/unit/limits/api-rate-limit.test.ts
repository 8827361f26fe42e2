import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import type { UserContext } from "../../../server/context.ts";
import { AppError } from "../../../server/errors.ts";
import { enforceApiRateLimit } from "../../../server/limits/api-rate-limit.ts";
import { DEFAULT_LICENSE } from "../../../server/limits/license.ts";
import { TokenReserves } from "../../../server/limits/token-reserve.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

const START = Date.UTC(2026, 0, 15, 12);

describe("enforceApiRateLimit", () => {
  let temp: Awaited<ReturnType<typeof createTempDatabase>>;
  let clock: ManualClock;
  let tokens: TokenReserves;
  const ctxFor = (userId: string) =>
    ({
      db: temp.database.db,
      clock,
      license: DEFAULT_LICENSE, // free: 10 per minute, burst 20
      tokens,
      resHeaders: new Headers(),
      actor: { type: "user", userId, authType: "api_key", apiKeyId: "key_1" },
    }) as unknown as UserContext;

  beforeEach(async () => {
    temp = await createTempDatabase();
    clock = new ManualClock(START);
    tokens = new TokenReserves();
  });
  afterEach(() => temp.cleanup());

  it("sets the spec and IETF rate-limit headers on every allowed call", async () => {
    const ctx = ctxFor("usr_1");
    await enforceApiRateLimit(ctx);
    expect(Object.fromEntries(ctx.resHeaders)).toEqual({
      "x-ratelimit-limit": "10",
      "x-ratelimit-remaining": "19",
      "x-ratelimit-reset": new Date(START + 6_000).toISOString(),
      "ratelimit-policy": "20;w=120",
      ratelimit: "limit=20, remaining=19, reset=6",
    });
  });

  it("answers 429 with Retry-After and the same headers once the burst is spent", async () => {
    for (let i = 0; i < 20; i++) await enforceApiRateLimit(ctxFor("usr_1"));
    clock.advance(2_000);
    const ctx = ctxFor("usr_1");
    const err = await enforceApiRateLimit(ctx).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    const appError = err as AppError;
    expect(appError).toMatchObject({ status: 429, code: "RATE_LIMITED", details: { retryAfterSeconds: 4 } });
    expect(appError.headers).toEqual({
      "Retry-After": "4",
      "X-RateLimit-Limit": "10",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": new Date(START + 6_000).toISOString(),
      "RateLimit-Policy": "20;w=120",
      RateLimit: "limit=20, remaining=0, reset=4",
    });
    expect(ctx.resHeaders.get("x-ratelimit-remaining")).toBe("0");
    // Another user has a bucket of their own.
    await enforceApiRateLimit(ctxFor("usr_2"));
    // After the wait the caller gets through again.
    clock.advance(4_000);
    await enforceApiRateLimit(ctxFor("usr_1"));
  });
});
