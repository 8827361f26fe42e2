import { describe, expect, it } from "vitest";
import { nextTick, parseSchedule, type Schedule } from "../../../server/triggers/schedule/index.ts";

function schedule(cron: string, timezone = "UTC"): Schedule {
  const parsed = parseSchedule({ cron, timezone });
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
}

/** The first `count` ticks after `afterMs`, as ISO strings for readable failures. */
function ticks(s: Schedule, afterMs: number, count: number): string[] {
  const out: string[] = [];
  let at: number | null = afterMs;
  while (out.length < count && at !== null) {
    at = nextTick(s, at);
    if (at !== null) out.push(new Date(at).toISOString());
  }
  return out;
}

// Thursday 2026-01-15 12:00:00 UTC.
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

describe("nextTick", () => {
  it("returns the tick strictly after the given instant", () => {
    const everyMinute = schedule("* * * * *");
    expect(nextTick(everyMinute, T0)).toBe(T0 + 60_000);
    expect(nextTick(everyMinute, T0 - 1)).toBe(T0);
    expect(nextTick(everyMinute, T0 + 500)).toBe(T0 + 60_000);
  });

  it("steps, ranges and lists", () => {
    expect(ticks(schedule("*/20 * * * *"), T0, 3)).toEqual([
      "2026-01-15T12:20:00.000Z",
      "2026-01-15T12:40:00.000Z",
      "2026-01-15T13:00:00.000Z",
    ]);
    expect(ticks(schedule("15,45 9-10 * * *"), T0, 5)).toEqual([
      "2026-01-16T09:15:00.000Z",
      "2026-01-16T09:45:00.000Z",
      "2026-01-16T10:15:00.000Z",
      "2026-01-16T10:45:00.000Z",
      "2026-01-17T09:15:00.000Z",
    ]);
    expect(ticks(schedule("0 0-23/8 * * *"), T0, 3)).toEqual([
      "2026-01-15T16:00:00.000Z",
      "2026-01-16T00:00:00.000Z",
      "2026-01-16T08:00:00.000Z",
    ]);
  });

  it("named days and months", () => {
    // Weekdays only: Thursday 15th, then Friday, then Monday.
    expect(ticks(schedule("0 9 * * MON-FRI"), Date.UTC(2026, 0, 15, 8), 3)).toEqual([
      "2026-01-15T09:00:00.000Z",
      "2026-01-16T09:00:00.000Z",
      "2026-01-19T09:00:00.000Z",
    ]);
    expect(ticks(schedule("0 0 1 mar,SEP *"), T0, 3)).toEqual([
      "2026-03-01T00:00:00.000Z",
      "2026-09-01T00:00:00.000Z",
      "2027-03-01T00:00:00.000Z",
    ]);
  });

  it("fires on day-of-month OR day-of-week when both are given, as cron does", () => {
    // The 20th (a Tuesday) or any Sunday.
    expect(ticks(schedule("0 0 20 * SUN"), T0, 3)).toEqual([
      "2026-01-18T00:00:00.000Z",
      "2026-01-20T00:00:00.000Z",
      "2026-01-25T00:00:00.000Z",
    ]);
  });

  it("nicknames", () => {
    expect(ticks(schedule("@hourly"), T0, 2)).toEqual(["2026-01-15T13:00:00.000Z", "2026-01-15T14:00:00.000Z"]);
    expect(ticks(schedule("@daily"), T0, 1)).toEqual(["2026-01-16T00:00:00.000Z"]);
    expect(ticks(schedule("@weekly"), T0, 1)).toEqual(["2026-01-18T00:00:00.000Z"]); // Sunday
    expect(ticks(schedule("@monthly"), T0, 1)).toEqual(["2026-02-01T00:00:00.000Z"]);
    expect(ticks(schedule("@yearly"), T0, 1)).toEqual(["2027-01-01T00:00:00.000Z"]);
  });

  it("6-field patterns put the tick at that second of each matching minute", () => {
    expect(ticks(schedule("30 */30 * * * *"), T0, 3)).toEqual([
      "2026-01-15T12:00:30.000Z",
      "2026-01-15T12:30:30.000Z",
      "2026-01-15T13:00:30.000Z",
    ]);
  });

  it("reads the pattern in the schedule's time zone", () => {
    const nineInNewYork = schedule("0 9 * * *", "America/New_York");
    expect(ticks(nineInNewYork, T0, 1)).toEqual(["2026-01-15T14:00:00.000Z"]); // EST, UTC-5
    expect(ticks(nineInNewYork, Date.UTC(2026, 6, 15, 12), 1)).toEqual(["2026-07-15T13:00:00.000Z"]); // EDT, UTC-4
    expect(ticks(schedule("0 9 * * *", "Asia/Kolkata"), T0, 1)).toEqual(["2026-01-16T03:30:00.000Z"]); // UTC+5:30
  });

  it("last day of the month", () => {
    expect(ticks(schedule("0 12 L * *"), T0, 2)).toEqual(["2026-01-31T12:00:00.000Z", "2026-02-28T12:00:00.000Z"]);
  });

  it("returns null when the pattern never fires again", () => {
    // croner computes no dates past the year 9999.
    expect(nextTick(schedule("0 0 1 1 *"), Date.UTC(9999, 1, 1))).toBeNull();
  });

  it("refuses an instant that is not a number", () => {
    expect(() => nextTick(schedule("* * * * *"), Number.NaN)).toThrow(RangeError);
  });
});
