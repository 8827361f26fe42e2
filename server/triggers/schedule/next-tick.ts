import { cronFor } from "./cron-job.ts";
import type { Schedule } from "./schedule.ts";

/**
 * The next tick strictly after `afterMs` (epoch ms), or null if the pattern never fires again.
 * Ticks are whole seconds (whole minutes for 5-field patterns) and move in real time through DST
 * changes, so the ticks of a schedule are one fixed set of instants whatever `afterMs` is.
 */
export function nextTick(schedule: Schedule, afterMs: number): number | null {
  if (!Number.isFinite(afterMs)) throw new RangeError(`afterMs must be a finite epoch ms, got ${afterMs}`);
  const next = cronFor(schedule.cron, schedule.timezone).nextRun(new Date(afterMs));
  return next === null ? null : next.getTime();
}
