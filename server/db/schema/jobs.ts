import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The durable job queue (docs/jobs.md): async workflow runs, schedule ticks, notification work.
 * Workers claim due rows under a lease; every state change is one guarded UPDATE.
 * Workspace and user ids are not foreign keys: a job's record outlives what it was about.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** JSON text handed to the kind's handler. */
    payload: text("payload").notNull(),
    status: text("status", { enum: ["queued", "processing", "completed", "failed"] }).notNull(),
    /** Not claimable before this time (epoch ms): the requested delay, or the retry backoff. */
    runAt: integer("run_at").notNull(),
    /** Claims so far, including the one running now. */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: integer("lease_expires_at"),
    /** Times a claim's lease ran out before its worker settled it (the worker was lost). */
    lostCount: integer("lost_count").notNull().default(0),
    lastError: text("last_error"),
    /** JSON text of the handler's return value, once completed. */
    result: text("result"),
    workspaceId: text("workspace_id"),
    userId: text("user_id"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    completedAt: integer("completed_at"),
  },
  // Partial indexes: each holds only the rows one query looks for, so finished jobs piling up
  // cost the claim nothing.
  (t) => [
    index("jobs_due_idx").on(t.kind, t.runAt).where(sql`status = 'queued'`),
    index("jobs_lease_idx").on(t.leaseExpiresAt).where(sql`status = 'processing'`),
    index("jobs_finished_idx").on(t.completedAt).where(sql`status IN ('completed', 'failed')`),
  ],
);
