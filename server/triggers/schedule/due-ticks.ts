import { nextTick } from "./next-tick.ts";
import type { Schedule } from "./schedule.ts";

/**
 * Decides what the scheduler enqueues at `nowMs` given the last tick it enqueued (null = never):
 * every due tick collapses to AT MOST ONE catch-up run (the most recent due tick) after downtime,
 * plus the next tick to wait for.
 *
 * A tick is due when it is after `lastTickMs`, at or after `deployedAtMs` and at or before
 * `nowMs`. `next` is the first tick after `nowMs` (and after both bounds), or null if none.
 */
export function dueTicks(
  schedule: Schedule,
  lastTickMs: number | null,
  nowMs: number,
  deployedAtMs: number,
): { due: number | null; next: number | null } {
  const after = Math.max(lastTickMs ?? Number.NEGATIVE_INFINITY, deployedAtMs - 1);
  const first = nextTick(schedule, after);
  if (first === null || first > nowMs) return { due: null, next: first };

  const second = nextTick(schedule, first);
  if (second === null || second > nowMs) return { due: first, next: second };

  // Downtime: several ticks are due, only the latest runs.
  const due = latestTickAtOrBefore(schedule, second, nowMs);
  return { due, next: nextTick(schedule, due) };
}

/**
 * The latest tick <= nowMs, given a tick known to be <= nowMs. Binary search on "is there a tick
 * in (x, nowMs]", so a year of downtime on a per-minute schedule costs ~45 steps, not 500,000.
 * It only uses `nextTick`, so catch-up ticks are always members of the same set as regular ones.
 */
function latestTickAtOrBefore(schedule: Schedule, knownTickMs: number, nowMs: number): number {
  const tickIn = (afterMs: number) => {
    const tick = nextTick(schedule, afterMs);
    return tick !== null && tick <= nowMs;
  };
  // Invariant: a tick lies in (low, nowMs]; none lies in (high, nowMs].
  let low = knownTickMs - 1;
  let high = nowMs;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (tickIn(middle)) low = middle;
    else high = middle;
  }
  // A tick in (high - 1, nowMs] but none in (high, nowMs]: the tick is `high` itself.
  return high;
}
