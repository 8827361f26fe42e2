import type { InStatement } from "@libsql/client";
import type { Database } from "../db/client.ts";
import type { JobClaim } from "./job.ts";

// The guard (owner, attempts, still processing) makes a worker whose lease ran out, and whose
// job someone else has claimed since, a no-op instead of overwriting the newer claim's outcome.
const completeSql =
  "UPDATE jobs SET status = 'completed', result = ?, completed_at = ?, lease_expires_at = NULL " +
  "WHERE id = ? AND lease_owner = ? AND attempts = ? AND status = 'processing'";

/** The guarded UPDATE completing a claim with the handler's result (stored as JSON). */
export function completeJobStatement(claim: JobClaim, result: unknown, now: number): InStatement {
  const json = result === undefined ? null : (JSON.stringify(result) ?? null);
  return { sql: completeSql, args: [json, now, claim.id, claim.leaseOwner, claim.attempts] };
}

/** Completes a claim; false when the claim was no longer current (its lease ran out and was taken over). */
export async function completeJob(database: Database, claim: JobClaim, result: unknown, now: number): Promise<boolean> {
  const rs = await database.client.execute(completeJobStatement(claim, result, now));
  return rs.rowsAffected === 1;
}
