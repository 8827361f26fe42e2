import type { InStatement } from "@libsql/client";
import type { Database } from "../db/client.ts";
import type { JobClaim } from "./job.ts";

const extendSql =
  "UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND attempts = ? AND status = 'processing'";

export function extendLeaseStatement(claim: JobClaim, leaseMs: number, now: number): InStatement {
  return { sql: extendSql, args: [now + leaseMs, claim.id, claim.leaseOwner, claim.attempts] };
}

/**
 * Pushes a claim's lease to `now + leaseMs`, for jobs that run longer than a lease. False when the
 * claim is no longer current: the job was taken over (or failed) after the lease ran out, and
 * this worker's outcome for it will be ignored.
 */
export async function extendLease(database: Database, claim: JobClaim, leaseMs: number, now: number): Promise<boolean> {
  const rs = await database.client.execute(extendLeaseStatement(claim, leaseMs, now));
  return rs.rowsAffected === 1;
}

/** Extends several claims in one transaction; true for each claim that was still current. */
export async function extendLeases(database: Database, claims: JobClaim[], leaseMs: number, now: number): Promise<boolean[]> {
  if (claims.length === 0) return [];
  const results = await database.client.batch(
    claims.map((claim) => extendLeaseStatement(claim, leaseMs, now)),
    "write",
  );
  return results.map((r) => r.rowsAffected === 1);
}
