import type { InStatement } from "@libsql/client";
import type { Database } from "../db/client.ts";
import { randomUUID } from "node:crypto";

/** Claims a job gets when its producer does not say (the first run plus two retries). */
export const DEFAULT_MAX_ATTEMPTS = 3;

export type NewJob = {
  /** Defaults to `newJobId(now)`. A producer that passes its own id gets at most one job per id. */
  id?: string;
  kind: string;
  /** Anything JSON.stringify accepts; handed to the handler parsed. */
  payload: unknown;
  /** Not claimable before this time (epoch ms); default: now. */
  runAt?: number;
  maxAttempts?: number;
  workspaceId?: string | null;
  userId?: string | null;
};

export type EnqueuedJobStatement = { id: string; statement: InStatement };

/**
 * `job_` + 32 hex digits like other ids, but starting with the creation time (ms, 12 digits) so
 * that new ids land at the end of the primary-key index instead of on random pages of it.
 */
export function newJobId(now: number): string {
  // randomUUID draws from a cached entropy pool; randomBytes per id showed up in profiles.
  const random = randomUUID().replaceAll("-", "").slice(12);
  return `job_${Math.max(0, Math.floor(now)).toString(16).padStart(12, "0").slice(-12)}${random}`;
}

// A second enqueue with the same id is a no-op, so producers can dedupe (one tick per schedule and time).
const insertJob =
  "INSERT INTO jobs (id, kind, payload, status, run_at, attempts, max_attempts, lost_count, workspace_id, user_id, created_at) " +
  "VALUES (?, ?, ?, 'queued', ?, 0, ?, 0, ?, ?, ?) ON CONFLICT (id) DO NOTHING";

/**
 * The INSERT of one job, for the caller's own batch: written in the same transaction as the rows
 * that caused it, the job exists exactly when they do (transactional outbox).
 */
export function enqueueJobStatement(job: NewJob, now: number): EnqueuedJobStatement {
  const maxAttempts = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!job.kind) throw new RangeError("a job needs a kind");
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError("maxAttempts must be a positive integer");
  const id = job.id ?? newJobId(now);
  const payload = JSON.stringify(job.payload) ?? "null";
  return {
    id,
    statement: {
      sql: insertJob,
      args: [id, job.kind, payload, job.runAt ?? now, maxAttempts, job.workspaceId ?? null, job.userId ?? null, now],
    },
  };
}

/** Enqueues one job; `inserted` is false when a job with that id already existed. */
export async function enqueueJob(database: Database, job: NewJob, now: number): Promise<{ id: string; inserted: boolean }> {
  const { id, statement } = enqueueJobStatement(job, now);
  const result = await database.client.execute(statement);
  return { id, inserted: result.rowsAffected === 1 };
}

/** Enqueues many jobs in one transaction; returns their ids in order. */
export async function enqueueJobs(database: Database, jobs: NewJob[], now: number): Promise<string[]> {
  if (jobs.length === 0) return [];
  const prepared = jobs.map((job) => enqueueJobStatement(job, now));
  await database.client.batch(
    prepared.map((p) => p.statement),
    "write",
  );
  return prepared.map((p) => p.id);
}
