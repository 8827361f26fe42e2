import type { InStatement, ResultSet } from "@libsql/client";
import type { Database } from "../db/client.ts";
import { type ClaimedJob, jobColumns, jobFromRow } from "./job.ts";

export type ClaimJobsInput = {
  database: Database;
  /** Unique per worker (process and loop): the lease owner written on claimed rows. */
  workerId: string;
  /** The kinds this worker has handlers for; others are left to other workers. */
  kinds: readonly string[];
  limit: number;
  leaseMs: number;
  now: number;
};

/** The claim's SQL depends only on how many kinds it filters on. */
const claimSqlByKindCount = new Map<number, string>();

function claimSql(kindCount: number): string {
  let sql = claimSqlByKindCount.get(kindCount);
  if (sql) return sql;
  const kinds = Array.from({ length: kindCount }, (_, i) => `:k${i}`);
  // One index range per kind (jobs_due_idx is (kind, run_at) over queued rows) so that a backlog
  // of a kind nobody here handles is never scanned; expired leases come from jobs_lease_idx.
  const due = kinds.map(
    (k) =>
      `SELECT id, due FROM (SELECT id, run_at AS due FROM jobs WHERE status = 'queued' AND kind = ${k} ` +
      "AND run_at <= :now ORDER BY run_at LIMIT :limit)",
  );
  const expired =
    "SELECT id, due FROM (SELECT id, lease_expires_at AS due FROM jobs WHERE status = 'processing' " +
    `AND lease_expires_at < :now AND attempts < max_attempts AND kind IN (${kinds.join(", ")}) ` +
    "ORDER BY lease_expires_at LIMIT :limit)";
  // SET expressions read the row before the update: `status = 'processing'` there means the
  // previous claim's lease ran out.
  sql =
    "UPDATE jobs SET status = 'processing', lease_owner = :owner, lease_expires_at = :leaseUntil, " +
    "attempts = attempts + 1, started_at = coalesce(started_at, :now), " +
    "lost_count = lost_count + (status = 'processing'), " +
    "last_error = CASE WHEN status = 'processing' THEN 'worker lost (lease expired) on attempt ' || attempts ELSE last_error END " +
    `WHERE id IN (SELECT id FROM (${[...due, expired].join(" UNION ALL ")}) ORDER BY due LIMIT :limit) ` +
    `RETURNING ${jobColumns}`;
  claimSqlByKindCount.set(kindCount, sql);
  return sql;
}

/**
 * Ends as `failed` the jobs whose lease ran out on their last allowed attempt: nobody may run them
 * again, and without this they would stay `processing` for ever. Cheap (an index range over the
 * in-flight jobs), but not needed on every claim: workers run it once per poll.
 */
const failExhaustedSql =
  "UPDATE jobs SET status = 'failed', lost_count = lost_count + 1, " +
  "last_error = 'worker lost ' || (lost_count + 1) || CASE WHEN lost_count = 0 THEN ' time' ELSE ' times' END " +
  "|| ' (lease expired), attempts exhausted (' || attempts || ' of ' || max_attempts || ')', " +
  "completed_at = ?, lease_expires_at = NULL " +
  "WHERE status = 'processing' AND lease_expires_at < ? AND attempts >= max_attempts";

export function failExhaustedJobsStatement(now: number): InStatement {
  return { sql: failExhaustedSql, args: [now, now] };
}

/** The claim UPDATE ... RETURNING, for a batch of the caller's; read its result with `claimedJobs`. */
export function claimJobsStatement(input: Omit<ClaimJobsInput, "database">): InStatement {
  const { workerId, kinds, limit, leaseMs, now } = input;
  const args: Record<string, string | number> = { owner: workerId, leaseUntil: now + leaseMs, now, limit };
  for (let i = 0; i < kinds.length; i++) args[`k${i}`] = kinds[i];
  return { sql: claimSql(kinds.length), args };
}

/** The jobs a claim statement returned, oldest due first (RETURNING gives no order). */
export function claimedJobs(result: ResultSet): ClaimedJob[] {
  return result.rows.map((row) => jobFromRow(row) as ClaimedJob).sort((a, b) => a.runAt - b.runAt);
}

/**
 * Claims up to `limit` due jobs of `kinds` (queued with `run_at <= now`, or processing with an
 * expired lease) in one UPDATE ... RETURNING, oldest due first, after failing the jobs whose
 * workers were lost on their last attempt. Writers are serialized by the database, so each row
 * goes to exactly one claimer, across processes too.
 */
export async function claimJobs(input: ClaimJobsInput): Promise<ClaimedJob[]> {
  const { database, kinds, limit, now } = input;
  if (kinds.length === 0 || limit < 1) return [];
  const [, claimed] = await database.client.batch([failExhaustedJobsStatement(now), claimJobsStatement(input)], "write");
  return claimedJobs(claimed);
}
