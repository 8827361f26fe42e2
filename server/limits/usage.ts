import { and, eq, sql } from "drizzle-orm";
import type { AppDeps } from "../context.ts";
import type { Db } from "../db/client.ts";
import { usagePeriods } from "../db/schema/index.ts";
import { type CompiledStatement, compileStatement, placeholder as p } from "../services/executions/compiled-statement.ts";

// Read before every execution: compiled once, each call only binds values.
let lookup: CompiledStatement | undefined;

/** The billing period containing `ms`: its calendar month in UTC, as `YYYY-MM`. */
export function billingPeriod(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** USD the user has spent in the current billing period (0 before the first run). */
export async function getCurrentPeriodCost(deps: Pick<AppDeps, "db" | "clock">, userId: string): Promise<number> {
  lookup ??= compileStatement(
    deps.db
      .select({ cost: usagePeriods.cost })
      .from(usagePeriods)
      .where(and(eq(usagePeriods.userId, p("userId")), eq(usagePeriods.period, p("period")))),
  );
  const { rows } = await deps.db.$client.execute(lookup({ userId, period: billingPeriod(deps.clock.now()) }));
  return periodCost((rows[0]?.[0] as number | undefined) ?? null);
}

/** A period's stored running cost (null: no row yet) as callers see it. */
export function periodCost(stored: number | null): number {
  // The running sum is a REAL: drop the float noise that many small additions leave behind.
  return stored === null ? 0 : Math.round(stored * 1e9) / 1e9;
}

/**
 * Adds one execution costing `cost` USD to the user's period containing `atMs`. Returns the
 * unexecuted statement so the execution recorder can put it in the same `db.batch([...])` as the
 * log completion: the period total and the logs never disagree.
 */
export function addUsageStatement(db: Db, userId: string, atMs: number, cost: number) {
  return db
    .insert(usagePeriods)
    .values({ userId, period: billingPeriod(atMs), cost, executions: 1 })
    .onConflictDoUpdate({
      target: [usagePeriods.userId, usagePeriods.period],
      set: {
        cost: sql`${usagePeriods.cost} + excluded.cost`,
        executions: sql`${usagePeriods.executions} + 1`,
      },
    });
}

