import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { limitsSchema } from "../../../contract/usage/schemas.ts";
import { ManualClock } from "../../../server/clock.ts";
import { AppError } from "../../../server/errors.ts";
import { assertWithinUsageLimit, getLimits, takeExecutionToken } from "../../../server/limits/execution-limits.ts";
import { TokenReserves } from "../../../server/limits/token-reserve.ts";
import type { License } from "../../../server/limits/license.ts";
import { PLAN_LIMITS } from "../../../server/limits/plans.ts";
import { addUsageStatement } from "../../../server/limits/usage.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

const START = Date.UTC(2026, 0, 15, 12);
const license: License = {
  plan: "pro",
  licensee: "Test",
  source: "unsigned",
  limits: { ...PLAN_LIMITS.pro, sync: { requestsPerMinute: 30, maxBurst: 3 }, usageLimitUsd: 1 },
};

async function thrown(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e: unknown) => e);
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe("execution limits", () => {
  let temp: Awaited<ReturnType<typeof createTempDatabase>>;
  let deps: { db: typeof temp.database.db; clock: ManualClock; license: License; tokens: TokenReserves };
  beforeEach(async () => {
    temp = await createTempDatabase();
    deps = { db: temp.database.db, clock: new ManualClock(START), license, tokens: new TokenReserves() };
  });
  afterEach(() => temp.cleanup());

  it("getLimits reports full buckets and usage of the current period, in the contract's shape", async () => {
    await addUsageStatement(deps.db, "usr_1", START - 1_000, 0.25);
    const limits = await getLimits(deps, "usr_1");
    expect(limits).toEqual({
      workflowExecutionRateLimit: {
        sync: { requestsPerMinute: 30, maxBurst: 3, remaining: 3, resetAt: new Date(START + 2_000).toISOString() },
        async: { requestsPerMinute: 1000, maxBurst: 2000, remaining: 2000, resetAt: new Date(START + 60).toISOString() },
      },
      usage: { currentPeriodCost: 0.25, limit: 1, plan: "pro", isExceeded: false },
    });
    expect(limitsSchema.parse(limits)).toEqual(limits);
  });

  it("takeExecutionToken spends the mode's own bucket and answers 429 with Retry-After when empty", async () => {
    for (let i = 0; i < 3; i++) await takeExecutionToken(deps, "usr_1", "sync");
    const err = await thrown(takeExecutionToken(deps, "usr_1", "sync"));
    expect(err).toMatchObject({ status: 429, code: "RATE_LIMITED", headers: { "Retry-After": "2" } });
    // The async bucket and other users are untouched.
    await takeExecutionToken(deps, "usr_1", "async");
    await takeExecutionToken(deps, "usr_2", "sync");
    const limits = await getLimits(deps, "usr_1");
    expect(limits.workflowExecutionRateLimit.sync.remaining).toBe(0);
    expect(limits.workflowExecutionRateLimit.async.remaining).toBe(1999);
    deps.clock.advance(2_000);
    await takeExecutionToken(deps, "usr_1", "sync");
  });

  it("getLimits never spends a token", async () => {
    await takeExecutionToken(deps, "usr_1", "sync");
    for (let i = 0; i < 10; i++) await getLimits(deps, "usr_1");
    expect((await getLimits(deps, "usr_1")).workflowExecutionRateLimit.sync.remaining).toBe(2);
  });

  it("assertWithinUsageLimit refuses with 402 once the period's cost reaches the limit", async () => {
    await addUsageStatement(deps.db, "usr_1", START, 0.995);
    await assertWithinUsageLimit(deps, "usr_1");
    await addUsageStatement(deps.db, "usr_1", START, 0.005);
    const err = await thrown(assertWithinUsageLimit(deps, "usr_1"));
    expect(err).toMatchObject({
      status: 402,
      code: "USAGE_LIMIT_EXCEEDED",
      details: { currentPeriodCost: 1, limit: 1, plan: "pro" },
    });
    expect(err.message).toContain("$1.00");
    expect((await getLimits(deps, "usr_1")).usage.isExceeded).toBe(true);
    // A new billing period starts from zero.
    deps.clock.set(Date.UTC(2026, 1, 1));
    await assertWithinUsageLimit(deps, "usr_1");
  });
});
