import { compileCron } from "./cron-job.ts";
import { describeType } from "./describe-type.ts";

const MAX_LENGTH = 120;
// Field names and their values, for messages that say which field is wrong and what it takes.
const FIELDS_5: Array<[string, string]> = [
  ["minute", "0-59"],
  ["hour", "0-23"],
  ["day of month", "1-31, L or nW"],
  ["month", "1-12 or JAN-DEC"],
  ["day of week", "0-7 or SUN-SAT (0 and 7 are Sunday), d#n or dL"],
];
const FIELDS_6: Array<[string, string]> = [["second", "0-59"], ...FIELDS_5];
const NICKNAMES = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"];

/**
 * Checks a start block's `cron` param and returns it normalized (trimmed, single spaces).
 * Accepted: 5 fields (minute hour day month weekday), 6 fields with seconds first, or a nickname.
 * A schedule fires at most once per minute: in a 6-field pattern the seconds field must be one
 * second (0-59), so seconds only choose where in the minute a tick falls.
 */
export function checkCron(value: unknown): { cron: string } | { error: string } {
  if (value === undefined || value === null) return { error: "cron is required" };
  if (typeof value !== "string") return { error: `cron must be a string, got ${describeType(value)}` };
  const cron = value.trim().split(/\s+/).join(" ");
  if (cron === "") return { error: "cron is required" };
  if (cron.length > MAX_LENGTH) return { error: `cron is too long (at most ${MAX_LENGTH} characters)` };

  if (cron.startsWith("@")) {
    const nickname = cron.toLowerCase();
    if (nickname === "@reboot") return { error: "cron @reboot is not supported: a schedule needs a time pattern" };
    if (!NICKNAMES.includes(nickname)) {
      return { error: `unknown cron nickname ${cron} (use one of ${NICKNAMES.join(", ")})` };
    }
    return { cron: nickname };
  }

  const fields = cron.split(" ");
  if (fields.length !== 5 && fields.length !== 6) {
    return {
      error:
        `cron must have 5 fields (minute hour day month weekday), got ${fields.length} ` +
        "(6 fields are read as second minute hour day month weekday)",
    };
  }
  if (fields.length === 6 && !isSingleSecond(fields[0])) {
    return {
      error:
        `cron second field "${fields[0]}" must be a single second 0-59: ` +
        "a schedule fires at most once per minute",
    };
  }

  const problem = patternProblem(cron) ?? neverFiresProblem(cron);
  return problem === null ? { cron } : { error: problem };
}

function isSingleSecond(field: string): boolean {
  return /^\d{1,2}$/.test(field) && Number(field) <= 59;
}

function patternProblem(cron: string): string | null {
  const error = croneError(cron);
  if (error === null) return null;
  // croner's messages count fields from the seconds it inserts and shift month/day values by one,
  // so the message names the user's field and what it accepts instead.
  const fields = cron.split(" ");
  const specs = fields.length === 6 ? FIELDS_6 : FIELDS_5;
  for (let i = 0; i < fields.length; i++) {
    const alone = fields.map((field, j) => (j === i ? field : "*")).join(" ");
    if (croneError(alone) === null) continue;
    const [name, values] = specs[i];
    return (
      `cron ${name} field "${fields[i]}" is invalid ` +
      `(values ${values}; lists a,b, ranges a-b and steps */n or a-b/n are allowed)`
    );
  }
  return `cron "${cron}" is invalid: ${error}`;
}

function croneError(cron: string): string | null {
  try {
    compileCron(cron, "UTC");
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^CronPattern:\s*/, "");
  }
}

// Without a year field a pattern repeats with the calendar, so one that has no run after 1970
// never has one (30 February, 31 April).
function neverFiresProblem(cron: string): string | null {
  const first = compileCron(cron, "UTC").nextRun(new Date(0));
  return first === null ? `cron "${cron}" never fires: no date matches it` : null;
}
