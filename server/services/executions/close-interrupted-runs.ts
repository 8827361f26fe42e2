import { and, eq, lt, sql } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { executionLogs } from "../../db/schema/index.ts";
import { EXECUTION_JOB } from "./execution-job.ts";

// The execution ids of queued executions a worker may still run (jobs.payload is JSON).
const notPendingJob = sql`${executionLogs.executionId} NOT IN (SELECT json_extract(payload, '$.executionId') FROM jobs
  WHERE kind = ${EXECUTION_JOB} AND status IN ('queued', 'processing'))`;

export const INTERRUPTED_RUN_ERROR = "The run was interrupted: the service stopped before it finished";

/**
 * At start-up, closes as `error` the runs a previous process left `running` (it crashed or was
 * killed mid-run), so that no log stays running for ever and ascending log pages move on.
 * Runs the starting process could own (started at or after `before`) are left alone, and so are
 * queued executions whose job is still pending: a worker will take the job again and complete the run.
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
    .where(
      and(
        eq(executionLogs.status, "running"),
        lt(executionLogs.startedAt, before),
        notPendingJob,
      ),
    )
    .returning({ id: executionLogs.id });
  if (closed.length > 0) ctx.logger.warn("closed runs interrupted by a previous stop", { count: closed.length });
  return closed.length;
}
