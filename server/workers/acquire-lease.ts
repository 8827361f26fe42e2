import type { Database } from "../db/client.ts";

// Takes the lease when it is free, expired or already ours; RETURNING tells whether we hold it now.
const acquireSql =
  "INSERT INTO leases (name, owner, expires_at) VALUES (?1, ?2, ?3) " +
  "ON CONFLICT (name) DO UPDATE SET owner = ?2, expires_at = ?3 WHERE leases.owner = ?2 OR leases.expires_at < ?4 " +
  "RETURNING owner";

/**
 * Takes or renews the named lease for `owner` until `now + leaseMs`: true when `owner` holds it.
 * One atomic statement, so of several processes asking at once exactly one wins; a holder that
 * stops renewing loses it when it expires.
 */
export async function acquireLease(database: Database, name: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
  const { rows } = await database.client.execute({ sql: acquireSql, args: [name, owner, now + leaseMs, now] });
  return rows.length === 1 && rows[0][0] === owner;
}

/** Gives the lease up (on shutdown), so another process takes over without waiting for it to expire. */
export async function releaseLease(database: Database, name: string, owner: string): Promise<void> {
  await database.client.execute({ sql: "DELETE FROM leases WHERE name = ? AND owner = ?", args: [name, owner] });
}
