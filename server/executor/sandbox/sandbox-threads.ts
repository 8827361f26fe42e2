import {
  defaultSandboxThreads,
  MAX_QUEUED_RUNS,
  THREAD_GRACE_MS,
  THREAD_START_TIMEOUT_MS,
} from "./limits.ts";
import { SandboxPool } from "./sandbox-pool.ts";
import { spawnSandboxThread } from "./spawn-sandbox-thread.ts";

let threads = defaultSandboxThreads();
let pool: SandboxPool | undefined;

/** The process' pool of sandbox threads, created on first use (its threads too, as runs need them). */
export function sandboxPool(): SandboxPool {
  pool ??= new SandboxPool({
    threads,
    maxQueued: MAX_QUEUED_RUNS,
    graceMs: THREAD_GRACE_MS,
    startTimeoutMs: THREAD_START_TIMEOUT_MS,
    spawn: spawnSandboxThread,
  });
  return pool;
}

/** Sets how many threads run sandbox code at most (SANDBOX_THREADS); the default is one per CPU, 1 to 8. */
export function configureSandbox(options: { threads: number }): void {
  if (!Number.isInteger(options.threads) || options.threads < 1) {
    throw new RangeError(`Invalid sandbox thread count: ${String(options.threads)}`);
  }
  threads = options.threads;
  pool?.setThreads(threads);
}

/**
 * Stops the sandbox threads (server shutdown). Runs still in flight or waiting get an error. A run
 * started afterwards starts a new pool.
 */
export async function closeSandbox(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}
