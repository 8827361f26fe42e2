import type { InStatement } from "@libsql/client";
import type { ClaimedJob } from "./job.ts";

export type JobContext = {
  /**
   * Statements to commit in the same transaction as this job's completion (e.g. the execution log
   * row the job produced): one commit instead of two, and the row exists exactly when the job is
   * completed. Dropped if the handler throws; if they cannot be written, the attempt fails.
   */
  completeWith(statements: InStatement[]): void;
};

/** Runs one job; its return value is stored as the job's result. Throw to fail the attempt. */
export type JobHandler = (job: ClaimedJob, context: JobContext) => Promise<unknown>;

/** What became of one claimed job; `applied` is false when the claim had been taken over. */
export type JobSettlement =
  | { status: "completed"; applied: boolean }
  | { status: "queued"; applied: boolean; runAt: number; error: string }
  | { status: "failed"; applied: boolean; error: string };
