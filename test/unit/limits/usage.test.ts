import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import { usagePeriods } from "../../../server/db/schema/index.ts";
import { addUsageStatement, billingPeriod, getCurrentPeriodCost } from "../../../server/limits/usage.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

describe("billingPeriod", () => {
  it("is the UTC calendar month as YYYY-MM", () => {
    expect(billingPeriod(Date.UTC(2026, 0, 1, 0, 0, 0))).toBe("2026-01");
    expect(billingPeriod(Date.UTC(2026, 0, 31, 23, 59, 59, 999))).toBe("2026-01");
    expect(billingPeriod(Date.UTC(2026, 1, 1))).toBe("2026-02");
    expect(billingPeriod(Date.UTC(2025, 11, 31, 23, 0))).toBe("2025-12");
    // Local time zones do not matter: 2026-03-01T00:30+02:00 is still February in UTC.
    expect(billingPeriod(Date.parse("2026-03-01T00:30:00+02:00"))).toBe("2026-02");
  });
});

describe("usage periods", () => {
  let temp: Awaited<ReturnType<typeof createTempDatabase>>;
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
  beforeAll(async () => {
    temp = await createTempDatabase();
  });
  afterAll(() => temp.cleanup());

  it("adds executions to the period of their time, in a batch, and reads the current one", async () => {
    const db = temp.database.db;
    const deps = { db, clock };
    expect(await getCurrentPeriodCost(deps, "usr_a")).toBe(0);
    await db.batch([
      addUsageStatement(db, "usr_a", Date.UTC(2026, 0, 2), 0.1),
      addUsageStatement(db, "usr_a", Date.UTC(2026, 0, 3), 0.2),
      addUsageStatement(db, "usr_a", Date.UTC(2025, 11, 31), 5),
      addUsageStatement(db, "usr_b", Date.UTC(2026, 0, 3), 7),
    ]);
    await addUsageStatement(db, "usr_a", Date.UTC(2026, 0, 4), 0.005);
    expect(await getCurrentPeriodCost(deps, "usr_a")).toBe(0.305);
    expect(await getCurrentPeriodCost(deps, "usr_b")).toBe(7);
    const rows = await db.select().from(usagePeriods).all();
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.userId === "usr_a" && r.period === "2026-01")?.executions).toBe(3);
    expect(rows.find((r) => r.userId === "usr_a" && r.period === "2025-12")).toMatchObject({ cost: 5, executions: 1 });
    clock.set(Date.UTC(2026, 1, 1));
    expect(await getCurrentPeriodCost(deps, "usr_a")).toBe(0);
    clock.set(Date.UTC(2025, 11, 20));
    expect(await getCurrentPeriodCost(deps, "usr_a")).toBe(5);
  });
});
