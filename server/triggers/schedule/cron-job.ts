import { Cron, type CronOptions } from "croner";

/*
 * The croner options every schedule is evaluated with. Validation and tick computation must use
 * the same ones, or a pattern could validate and then behave differently.
 * - "5-or-6-parts": the year field is not offered (a 7th field is an error).
 * - "no-wildcard": any pattern without `*`, `?` or a step in second/minute/hour is a fixed-time
 *   job for DST (as in Vixie cron), so `30 2,14 * * *` fires once a day per hour like `30 2 * * *`.
 * - day-of-month and day-of-week combine with OR (Vixie cron); `+` in day-of-week asks for AND.
 */
const CRON_OPTIONS = {
  mode: "5-or-6-parts",
  fixedTimeRule: "no-wildcard",
  domAndDow: false,
  alternativeWeekdays: false,
  sloppyRanges: false,
  paused: true,
} as const satisfies CronOptions;

/** Builds a croner job (no timer: no function is given). Throws croner's error on a bad pattern. */
export function compileCron(cron: string, timezone: string): Cron {
  return new Cron(cron, { ...CRON_OPTIONS, timezone });
}

// A schedule is evaluated many times (every scheduler pass, a binary search on catch-up), so the
// parsed pattern is kept; the bound only guards memory against many distinct schedules.
const MAX_CACHED = 1_000;
const cache = new Map<string, Cron>();

/** The compiled job for a parsed schedule, cached by pattern and time zone. */
export function cronFor(cron: string, timezone: string): Cron {
  const key = `${timezone}\u0000${cron}`;
  let job = cache.get(key);
  if (job === undefined) {
    job = compileCron(cron, timezone);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, job);
  }
  return job;
}
