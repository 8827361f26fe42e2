import { checkCron } from "./check-cron.ts";
import { checkTimezone } from "./check-timezone.ts";

/** Validates a start block's schedule params; returns messages (empty = ok). */
export function validateSchedule(params: { cron?: unknown; timezone?: unknown }): string[] {
  const messages: string[] = [];
  const cron = checkCron(params.cron);
  if ("error" in cron) messages.push(cron.error);
  const timezone = checkTimezone(params.timezone);
  if ("error" in timezone) messages.push(timezone.error);
  return messages;
}
