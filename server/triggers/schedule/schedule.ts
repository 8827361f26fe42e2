/**
 * A deployed workflow's schedule, parsed once from its start block
 * (`params.trigger: "schedule"`, `params.cron`, `params.timezone`). Only values returned by
 * `parseSchedule` are valid; the tick functions assume a parsed schedule.
 */
export type Schedule = {
  /** The cron pattern, trimmed, fields separated by single spaces. */
  cron: string;
  /** IANA time zone name the pattern is read in. */
  timezone: string;
};

/** Time zone used when the start block names none. */
export const DEFAULT_TIMEZONE = "UTC";
