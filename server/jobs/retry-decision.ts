import type { JobClaim } from "./job.ts";
import { JobFailure } from "./job-failure.ts";

/** Longest message kept in `last_error`. */
export const MAX_ERROR_LENGTH = 2000;

/** Default backoff after failed attempt n (1-based): 1 s, 2 s, 4 s ... capped at 10 minutes. */
export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempt - 1), 10 * 60_000);
}

export type RetryDecision =
  | { status: "queued"; runAt: number; error: string }
  | { status: "failed"; error: string };

/** What a failed attempt leads to: another try later, or the end of the job. */
export function retryDecision(
  job: Pick<JobClaim, "attempts"> & { maxAttempts: number },
  error: unknown,
  now: number,
  retryDelayMs: (attempt: number) => number = defaultRetryDelayMs,
): RetryDecision {
  const message = errorMessage(error);
  const permanent = error instanceof JobFailure && !error.retry;
  if (permanent || job.attempts >= job.maxAttempts) return { status: "failed", error: message };
  const delay = error instanceof JobFailure && error.retryAfterMs !== undefined ? error.retryAfterMs : retryDelayMs(job.attempts);
  return { status: "queued", runAt: now + Math.max(0, delay), error: message };
}

function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
