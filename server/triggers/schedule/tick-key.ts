/**
 * The idempotency key of one schedule tick. Every process that decides to enqueue the tick
 * computes the same key, so the job queue's unique key lets only the first enqueue through.
 */
export function scheduleTickKey(workflowId: string, tickMs: number): string {
  return `schedule:${workflowId}:${tickMs}`;
}
