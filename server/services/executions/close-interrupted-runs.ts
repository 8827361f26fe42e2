import { and, eq, lt, sql } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { executionLogs } from "../../db/schema/index.ts";

export const INTERRUPTED_RUN_ERROR = "The run was interrupted: the service stopped before it finished";

/**
 * At start-up, closes as `error` the runs a previous process left `running` (it crashed or was
 * killed mid-run), so that no log stays running for ever and ascending log pages move on.
 * Runs the starting process could own (started at or after `before`) are left alone.
 */
export async function closeInterruptedRuns({ ctx, before }: { ctx: Pick<AppDeps, "db" | "clock" | "logger">; before: number }) {
  const now = ctx.clock.now();
  const closed = await ctx.db
    .update(executionLogs)
    .set({
      status: "error",
      level: "error",
      endedAt: sql`max(${executionLogs.startedAt}, ${now})`,
      totalDurationMs: sql`max(0, ${now} - ${executionLogs.startedAt})`,
      error: INTERRUPTED_RUN_ERROR,
    })
    .where(and(eq(executionLogs.status, "running"), lt(executionLogs.startedAt, before)))
    .returning({ id: executionLogs.id });
  if (closed.length > 0) ctx.logger.warn("closed runs interrupted by a previous stop", { count: closed.length });
  return closed.length;
}
