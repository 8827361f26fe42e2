import { availableParallelism } from "node:os";
import type { SandboxLimits } from "./types.ts";

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  timeoutMs: 5_000,
  memoryBytes: 64 * 1024 * 1024,
  maxLogEntries: 100,
  maxOutputBytes: 1024 * 1024,
});

/**
 * QuickJS' own recursion guard. Recursion also uses the host's native stack (wasm frames run on it),
 * so this stays well below what Node's and Deno's default ~1 MB native stack can hold; deeper
 * host-stack exhaustion is still caught (see run-in-sandbox.ts).
 */
export const MAX_STACK_BYTES = 256 * 1024;

/** Runs waiting for a free sandbox thread; beyond this a run is refused ("The sandbox is busy"). */
export const MAX_QUEUED_RUNS = 1_000;

/**
 * How long past its time limit a thread may stay silent before it is terminated and replaced. The
 * limit itself is enforced inside the thread; this only catches a thread that stopped checking it.
 */
export const THREAD_GRACE_MS = 1_000;

/** How long a new thread may take to load before the runs waiting for it fail. */
export const THREAD_START_TIMEOUT_MS = 30_000;

/** Sandbox threads when SANDBOX_THREADS is not set: one per CPU, from 1 to 8. */
export function defaultSandboxThreads(): number {
  return Math.min(8, Math.max(1, availableParallelism()));
}

/** Each console line is cut after this many characters. */
export const MAX_LOG_LINE_CHARS = 10_000;

/** A fresh context alone needs a few hundred KiB; below this nothing could run. */
const MIN_MEMORY_BYTES = 1024 * 1024;
/** The module's 32-bit memory tops out at 2 GiB; keep well clear of it. */
const MAX_MEMORY_BYTES = 1024 * 1024 * 1024;

/** Fills in defaults; a limit that is not a positive number is a caller bug, not a user-code problem. */
export function resolveLimits(overrides: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const key of Object.keys(limits) as (keyof SandboxLimits)[]) {
    const value = overrides?.[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`Invalid sandbox limit ${key}: ${String(value)}`);
    }
    limits[key] = value;
  }
  if (limits.timeoutMs <= 0) throw new RangeError("Invalid sandbox limit timeoutMs: must be above 0");
  if (limits.memoryBytes < MIN_MEMORY_BYTES || limits.memoryBytes > MAX_MEMORY_BYTES) {
    throw new RangeError(
      `Invalid sandbox limit memoryBytes: must be between ${MIN_MEMORY_BYTES} and ${MAX_MEMORY_BYTES}`,
    );
  }
  limits.maxLogEntries = Math.floor(limits.maxLogEntries);
  return limits;
}

/** "64 MiB", "1.5 MiB". */
export function formatMebibytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(2))} MiB`;
}
