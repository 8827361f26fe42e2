import type { Database } from "../db/client.ts";
import { type Job, jobColumns, jobFromRow } from "./job.ts";

const getSql = `SELECT ${jobColumns} FROM jobs WHERE id = ?`;

/** One job by id, or null. Access checks (workspace, user) are the caller's. */
export async function getJob(database: Database, id: string): Promise<Job | null> {
  const rs = await database.client.execute({ sql: getSql, args: [id] });
  return rs.rows.length === 0 ? null : jobFromRow(rs.rows[0]);
}
