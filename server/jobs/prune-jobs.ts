import type { Database } from "../db/client.ts";

// Bounded per call so that pruning a large backlog never holds the write lock for long.
const pruneSql =
  "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE status IN ('completed', 'failed') " +
  "AND completed_at < ? ORDER BY completed_at LIMIT ?)";

/**
 * Deletes up to `limit` jobs that finished (completed or failed) before `before`; returns how many.
 * Call it again while it returns `limit`.
 */
export async function pruneJobs({ database, before, limit = 1000 }: { database: Database; before: number; limit?: number }): Promise<number> {
  const rs = await database.client.execute({ sql: pruneSql, args: [before, limit] });
  return rs.rowsAffected;
}
