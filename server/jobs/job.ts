import type { Row } from "@libsql/client";

export type JobStatus = "queued" | "processing" | "completed" | "failed";

/** A row of the `jobs` table with its JSON columns parsed. */
export type Job = {
  id: string;
  kind: string;
  payload: unknown;
  status: JobStatus;
  runAt: number;
  attempts: number;
  maxAttempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  lostCount: number;
  lastError: string | null;
  result: unknown;
  workspaceId: string | null;
  userId: string | null;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
};

/**
 * A job as its worker holds it after a claim. `leaseOwner` and `attempts` identify the claim:
 * completing or failing it only takes effect while both still match the row.
 */
export type ClaimedJob = Job & { status: "processing"; leaseOwner: string; leaseExpiresAt: number };

/** Identifies one claim of a job (the guard of every write a worker makes to it). */
export type JobClaim = Pick<ClaimedJob, "id" | "leaseOwner" | "attempts">;

/** Column list every read of whole jobs uses, in the order `jobFromRow` expects. */
export const jobColumns =
  "id, kind, payload, status, run_at, attempts, max_attempts, lease_owner, lease_expires_at, lost_count, " +
  "last_error, result, workspace_id, user_id, created_at, started_at, completed_at";

export function jobFromRow(row: Row): Job {
  return {
    id: row[0] as string,
    kind: row[1] as string,
    payload: parseJson(row[2]),
    status: row[3] as JobStatus,
    runAt: row[4] as number,
    attempts: row[5] as number,
    maxAttempts: row[6] as number,
    leaseOwner: row[7] as string | null,
    leaseExpiresAt: row[8] as number | null,
    lostCount: row[9] as number,
    lastError: row[10] as string | null,
    result: parseJson(row[11]),
    workspaceId: row[12] as string | null,
    userId: row[13] as string | null,
    createdAt: row[14] as number,
    startedAt: row[15] as number | null,
    completedAt: row[16] as number | null,
  };
}

function parseJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : null;
}
