import { describeType } from "./describe-type.ts";
import { DEFAULT_TIMEZONE } from "./schedule.ts";

const MAX_LENGTH = 64;
// IANA names are letters, digits and `_ + - /` (Etc/GMT+1, America/Port-au-Prince). Newer
// engines also take offsets such as "+01:00"; refusing them keeps every runtime on the same set.
const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/**
 * Checks a start block's `timezone` param. Absent, null or blank means UTC. The name is kept as
 * written (trimmed): Intl would rename aliases (EST becomes America/Panama), which would surprise.
 */
export function checkTimezone(value: unknown): { timezone: string } | { error: string } {
  if (value === undefined || value === null) return { timezone: DEFAULT_TIMEZONE };
  if (typeof value !== "string") return { error: `timezone must be a string, got ${describeType(value)}` };
  const name = value.trim();
  if (name === "") return { timezone: DEFAULT_TIMEZONE };
  if (name.length > MAX_LENGTH) return { error: `timezone is too long (at most ${MAX_LENGTH} characters)` };
  if (!IANA_SHAPE.test(name) || !isKnownToIntl(name)) {
    return { error: `unknown timezone ${name} (expected an IANA name such as Europe/Berlin or UTC)` };
  }
  return { timezone: name };
}

function isKnownToIntl(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
