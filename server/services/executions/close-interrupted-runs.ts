import { and, eq, sql } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { executionLogs } from "../../db/schema/index.ts";
import { EXECUTION_JOB } from "./execution-job.ts";

// The execution ids of queued executions a worker may still run (jobs.payload is JSON).
const notPendingJob = sql`${executionLogs.executionId} NOT IN (SELECT json_extract(payload, '$.executionId') FROM jobs
  WHERE kind = ${EXECUTION_JOB} AND status IN ('queued', 'processing'))`;

/** How long after a process's lease expired its runs are taken as interrupted. */
export const LEASE_GRACE_MS = 30_000;

export const INTERRUPTED_RUN_ERROR = "The run was interrupted: the service stopped before it finished";

/**
 * Closes as `error` the runs whose process died mid-run, so that no log stays running for ever and
 * ascending log pages move on. A run carries the id of the process running it; it is interrupted
 * once that process's `process:<id>` lease has expired (server/workers/process-lease.ts), which
 * leaves other live processes' runs alone. Runs without an owner (written before owners were
 * recorded) are closed when they started before `before`, if given. Queued executions whose job is
 * still pending are left to their job: a worker will take it again and complete the run.
 * Called at start-up and periodically by the scheduler's leader.
 */
export async function closeInterruptedRuns({
  ctx,
  before,
}: {
  ctx: Pick<AppDeps, "db" | "clock" | "logger"> & { processId?: string };
  before?: number;
}): Promise<number> {
  const now = ctx.clock.now();
  // Leases are written with their holder's clock: a grace period absorbs clocks that disagree. The
  // sweeping process's own runs are never interrupted (it is alive, whatever its lease says).
  const ownerGone = sql`(${executionLogs.ownerProcess} IS NOT NULL AND ${executionLogs.ownerProcess} <> ${ctx.processId ?? ""}
    AND NOT EXISTS (SELECT 1 FROM leases l
    WHERE l.name = 'process:' || ${executionLogs.ownerProcess} AND l.expires_at >= ${now - LEASE_GRACE_MS}))`;
  const legacy = before === undefined ? sql`0` : sql`(${executionLogs.ownerProcess} IS NULL AND ${executionLogs.startedAt} < ${before})`;
  const closed = await ctx.db
    .update(executionLogs)
    .set({
      status: "error",
      level: "error",
      endedAt: sql`max(${executionLogs.startedAt}, ${now})`,
      totalDurationMs: sql`max(0, ${now} - ${executionLogs.startedAt})`,
      error: INTERRUPTED_RUN_ERROR,
    })
    .where(and(eq(executionLogs.status, "running"), sql`(${ownerGone} OR ${legacy})`, notPendingJob))
    .returning({ id: executionLogs.id });
  if (closed.length > 0) ctx.logger.warn("closed runs interrupted by a stopped process", { count: closed.length });
  return closed.length;
}
