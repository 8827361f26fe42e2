import type { OutboundErrorKind } from "../../security/create-guarded-fetch.ts";

export const RETRY_BASE_MS = 500;
export const RETRY_MAX_BACKOFF_MS = 10_000;
export const RETRY_JITTER = 0.2;
export const RETRY_AFTER_CAP_MS = 30_000;

/** How one attempt ended: an HTTP answer, or no answer (why). */
export type AttemptResult =
  | { kind: "response"; status: number; retryAfter: string | null }
  | { kind: "failure"; reason: OutboundErrorKind | "unknown" };

export type RetryPolicy = {
  /** Retries after the first attempt (so retries + 1 attempts at most). */
  retries: number;
  /** False for POST/PATCH unless retryNonIdempotent: they may have taken effect already. */
  mayRetry: boolean;
};

/**
 * Whether to try again after attempt number `attempt` (0 = the first) and after how long, or null.
 * Only answers that may go away are retried: timeouts, connection failures, 429 and 5xx.
 */
export function retryDelay(
  result: AttemptResult,
  attempt: number,
  policy: RetryPolicy,
  now: number,
  random: () => number,
): number | null {
  if (!policy.mayRetry || attempt >= policy.retries) return null;
  if (result.kind === "failure") {
    return result.reason === "timeout" || result.reason === "network" ? backoffDelay(attempt, random) : null;
  }
  const { status } = result;
  if (status !== 429 && status < 500) return null;
  if ((status === 429 || status === 503) && result.retryAfter !== null) {
    const wait = parseRetryAfter(result.retryAfter, now);
    if (wait !== null) return Math.min(wait, RETRY_AFTER_CAP_MS);
  }
  return backoffDelay(attempt, random);
}

/** 500 ms x 2^attempt, capped at 10 s, plus up to 20 % jitter so that clients do not retry in step. */
export function backoffDelay(attempt: number, random: () => number): number {
  const base = Math.min(RETRY_BASE_MS * 2 ** attempt, RETRY_MAX_BACKOFF_MS);
  return Math.round(base * (1 + RETRY_JITTER * random()));
}

/** Retry-After as delay-seconds or an HTTP date; null when unreadable. */
export function parseRetryAfter(value: string, now: number): number | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names its weekday and month; this keeps Date.parse from reading "-1" as a year.
  if (!/[a-z]{3}/i.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
