import type { Client, InStatement } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import * as schema from "../../../server/db/schema/index.ts";
import { getLimits, takeExecutionToken } from "../../../server/limits/execution-limits.ts";
import { TokenReserves } from "../../../server/limits/token-reserve.ts";
import type { License } from "../../../server/limits/license.ts";
import { PLAN_LIMITS } from "../../../server/limits/plans.ts";
import { consumeToken, peekBucket } from "../../../server/limits/token-bucket.ts";
import { addUsageStatement, getCurrentPeriodCost } from "../../../server/limits/usage.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

const START = Date.UTC(2026, 0, 31, 23, 59, 50);
const license: License = {
  plan: "team",
  licensee: "Test",
  source: "unsigned",
  limits: { ...PLAN_LIMITS.team, sync: { requestsPerMinute: 7, maxBurst: 4 }, async: { requestsPerMinute: 90, maxBurst: 3 } },
};

/** A drizzle database over the temp file whose client records every statement sent to it. */
function recordingDb(client: Client) {
  const sent: string[] = [];
  const recording = new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === "execute") {
        return (stmt: InStatement) => {
          sent.push(typeof stmt === "string" ? stmt : stmt.sql);
          return target.execute(stmt);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: drizzle(recording, { schema }), sent };
}

describe("getLimits reads", () => {
  let temp: Awaited<ReturnType<typeof createTempDatabase>>;
  let deps: { db: typeof temp.database.db; clock: ManualClock; license: License; tokens: TokenReserves };
  beforeEach(async () => {
    temp = await createTempDatabase();
    deps = { db: temp.database.db, clock: new ManualClock(START), license, tokens: new TokenReserves() };
  });
  afterEach(() => temp.cleanup());

  /** What getLimits must answer: each bucket peeked and the period's cost read on their own. */
  async function expected(userId: string) {
    const cost = await getCurrentPeriodCost(deps, userId);
    return {
      workflowExecutionRateLimit: {
        sync: await peekBucket(deps, `sync:${userId}`, license.limits.sync),
        async: await peekBucket(deps, `async:${userId}`, license.limits.async),
      },
      usage: { currentPeriodCost: cost, limit: license.limits.usageLimitUsd, plan: "team", isExceeded: cost >= 500 },
    };
  }

  it("answers as the separate reads do, whichever of the three rows exist", async () => {
    const check = async (userId: string) => expect(await getLimits(deps, userId)).toEqual(await expected(userId));
    await check("usr_none");
    await takeExecutionToken(deps, "usr_sync", "sync");
    await check("usr_sync");
    await takeExecutionToken(deps, "usr_async", "async");
    await takeExecutionToken(deps, "usr_async", "async");
    await check("usr_async");
    await addUsageStatement(deps.db, "usr_cost", START, 0.1);
    await addUsageStatement(deps.db, "usr_cost", START, 0.2); // 0.30000000000000004 stored
    await check("usr_cost");
    expect((await getLimits(deps, "usr_cost")).usage.currentPeriodCost).toBe(0.3);
    for (let i = 0; i < 3; i++) await takeExecutionToken(deps, "usr_all", "sync");
    await takeExecutionToken(deps, "usr_all", "async");
    await addUsageStatement(deps.db, "usr_all", START, 600);
    await check("usr_all");
    expect((await getLimits(deps, "usr_all")).usage.isExceeded).toBe(true);
    // Part of a token later, in the next billing period: the cost starts over, the buckets refill.
    deps.clock.advance(12_345);
    for (const userId of ["usr_none", "usr_sync", "usr_async", "usr_cost", "usr_all"]) await check(userId);
    expect((await getLimits(deps, "usr_all")).usage.currentPeriodCost).toBe(0);
  });

  it("does not mix up users or keys that share a prefix", async () => {
    await consumeToken(deps, "sync:usr_1x", license.limits.sync);
    await consumeToken(deps, "api:usr_1", license.limits.sync);
    await addUsageStatement(deps.db, "usr_1x", START, 3);
    expect(await getLimits(deps, "usr_1")).toEqual(await expected("usr_none"));
  });

  it("sends one statement, with the same SQL text on every call", async () => {
    const { db, sent } = recordingDb(temp.database.client);
    const recorded = { ...deps, db };
    await takeExecutionToken(recorded, "usr_1", "sync");
    await takeExecutionToken(recorded, "usr_2", "async");
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    sent.length = 0;
    const first = await getLimits(recorded, "usr_1");
    expect(sent).toHaveLength(1);
    expect(first.workflowExecutionRateLimit.sync.remaining).toBe(3);
    await getLimits(recorded, "usr_2");
    expect(sent).toEqual([sent[0], sent[0]]);
  });
});
