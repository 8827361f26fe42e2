import { setImmediate } from "node:timers";

/**
 * Resolves after the event loop has run once (timers, I/O): blocks that resolve at once would
 * otherwise chain through microtasks only and hold the process for the whole run.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
