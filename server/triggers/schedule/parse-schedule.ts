import { checkCron } from "./check-cron.ts";
import { checkTimezone } from "./check-timezone.ts";
import type { Schedule } from "./schedule.ts";

/**
 * Parses a start block's schedule params once per deployed workflow. On failure `error` holds
 * the messages of `validateSchedule`, joined with "; ".
 */
export function parseSchedule(params: { cron?: unknown; timezone?: unknown }): Schedule | { error: string } {
  const cron = checkCron(params.cron);
  const timezone = checkTimezone(params.timezone);
  if ("error" in cron || "error" in timezone) {
    const errors = [cron, timezone].flatMap((check) => ("error" in check ? [check.error] : []));
    return { error: errors.join("; ") };
  }
  return { cron: cron.cron, timezone: timezone.timezone };
}
