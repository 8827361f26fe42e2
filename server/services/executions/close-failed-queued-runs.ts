import type { Database } from "../../db/client.ts";
import { EXECUTION_JOB } from "./execution-job.ts";

/** How far back the sweep looks for jobs that ended failed (it runs every scheduler round). */
const SWEEP_WINDOW_MS = 60 * 60_000;

// The jobs_finished_idx index (completed_at over finished jobs) bounds the subquery to recent ones.
const closeSql =
  "UPDATE execution_logs SET status = 'error', level = 'error', ended_at = max(started_at, ?1), " +
  "total_duration_ms = max(0, ?1 - started_at), " +
  "error = 'The queued run could not be completed: ' || coalesce((SELECT j.last_error FROM jobs j " +
  "WHERE j.kind = ?2 AND j.status = 'failed' AND json_extract(j.payload, '$.executionId') = execution_logs.execution_id " +
  "LIMIT 1), 'its job failed') " +
  "WHERE status = 'running' AND execution_id IN (SELECT json_extract(payload, '$.executionId') FROM jobs " +
  "WHERE kind = ?2 AND status = 'failed' AND completed_at >= ?3)";

/**
 * Closes as `error` the log rows of queued runs whose job ended failed (attempts exhausted, e.g. by
 * workers lost mid-run): written as `running` when the run was accepted, nothing else would ever
 * complete them, and they would hold ascending log pages back. Returns how many it closed.
 */
export async function closeFailedQueuedRuns(database: Database, now: number): Promise<number> {
  const result = await database.client.execute({ sql: closeSql, args: [now, EXECUTION_JOB, now - SWEEP_WINDOW_MS] });
  return result.rowsAffected;
}
