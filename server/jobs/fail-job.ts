import type { InStatement } from "@libsql/client";
import type { Database } from "../db/client.ts";
import type { JobClaim } from "./job.ts";
import { type RetryDecision, retryDecision } from "./retry-decision.ts";

const retrySql =
  "UPDATE jobs SET status = 'queued', run_at = ?, last_error = ?, lease_expires_at = NULL " +
  "WHERE id = ? AND lease_owner = ? AND attempts = ? AND status = 'processing'";
const failSql =
  "UPDATE jobs SET status = 'failed', last_error = ?, completed_at = ?, lease_expires_at = NULL " +
  "WHERE id = ? AND lease_owner = ? AND attempts = ? AND status = 'processing'";

export type FailableJob = JobClaim & { maxAttempts: number };

export type FailJobOptions = { retryDelayMs?: (attempt: number) => number };

/**
 * The guarded UPDATE for a failed attempt: back to `queued` with a later `run_at` while attempts
 * remain, else `failed` for good. Returns the decision with it (pure: the claim says how many
 * attempts were made).
 */
export function failJobStatement(
  job: FailableJob,
  error: unknown,
  now: number,
  options: FailJobOptions = {},
): { statement: InStatement; decision: RetryDecision } {
  const decision = retryDecision(job, error, now, options.retryDelayMs);
  const guard = [job.id, job.leaseOwner, job.attempts];
  const statement: InStatement =
    decision.status === "queued"
      ? { sql: retrySql, args: [decision.runAt, decision.error, ...guard] }
      : { sql: failSql, args: [decision.error, now, ...guard] };
  return { statement, decision };
}

/** Records a failed attempt; `applied` is false when the claim was no longer current. */
export async function failJob(
  database: Database,
  job: FailableJob,
  error: unknown,
  now: number,
  options: FailJobOptions = {},
): Promise<{ applied: boolean; decision: RetryDecision }> {
  const { statement, decision } = failJobStatement(job, error, now, options);
  const rs = await database.client.execute(statement);
  return { applied: rs.rowsAffected === 1, decision };
}
