import { MAX_RETRY_TRIES, MAX_RETRY_WAIT_MS } from "../engine/limits.ts";
import { isRecord } from "./labels.ts";

/** Problems with a block's `retry` setting, as messages without the block label. */
export function retryIssues(retry: unknown): string[] {
  if (retry === undefined) return [];
  if (!isRecord(retry)) return [`retry must be an object {tries, waitMs?}`];
  const issues: string[] = [];
  const { tries, waitMs } = retry;
  if (typeof tries !== "number" || !Number.isInteger(tries) || tries < 1 || tries > MAX_RETRY_TRIES) {
    issues.push(`retry.tries must be an integer from 1 to ${MAX_RETRY_TRIES} (got ${JSON.stringify(tries)})`);
  }
  if (waitMs !== undefined && (typeof waitMs !== "number" || !Number.isInteger(waitMs) || waitMs < 0 || waitMs > MAX_RETRY_WAIT_MS)) {
    issues.push(`retry.waitMs must be an integer from 0 to ${MAX_RETRY_WAIT_MS} (got ${JSON.stringify(waitMs)})`);
  }
  return issues;
}
