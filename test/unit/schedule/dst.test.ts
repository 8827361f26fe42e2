import { describe, expect, it } from "vitest";
import { dueTicks, nextTick, parseSchedule, type Schedule } from "../../../server/triggers/schedule/index.ts";

function schedule(cron: string, timezone: string): Schedule {
  const parsed = parseSchedule({ cron, timezone });
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
}

function ticksBetween(s: Schedule, fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  for (let at = nextTick(s, fromMs - 1); at !== null && at < toMs; at = nextTick(s, at)) out.push(at);
  return out;
}

/** "2026-03-29 03:00:00": wall-clock time of an instant in a zone. */
const wall = (ms: number, timeZone: string) => new Date(ms).toLocaleString("sv-SE", { timeZone });
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

// Europe/Berlin, 2026: clocks go 02:00 CET -> 03:00 CEST on 29 March (01:00 UTC), and
// 03:00 CEST -> 02:00 CET on 25 October (01:00 UTC), so 02:xx happens twice that night.
const BERLIN = "Europe/Berlin";

describe("a daily 02:30 schedule in Europe/Berlin", () => {
  const daily = schedule("30 2 * * *", BERLIN);

  it("fires at 03:00 on the spring-forward day, when 02:30 does not exist", () => {
    const ticks = ticksBetween(daily, Date.UTC(2026, 2, 27, 12), Date.UTC(2026, 2, 31)).map(iso);
    expect(ticks).toEqual([
      "2026-03-28T01:30:00.000Z", // 02:30 CET
      "2026-03-29T01:00:00.000Z", // 03:00 CEST, the first valid time after the gap
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
  });

  it("fires once, at the first 02:30, on the fall-back day", () => {
    const ticks = ticksBetween(daily, Date.UTC(2026, 9, 23, 12), Date.UTC(2026, 9, 27)).map(iso);
    expect(ticks).toEqual([
      "2026-10-24T00:30:00.000Z", // 02:30 CEST
      "2026-10-25T00:30:00.000Z", // 02:30 CEST; the 02:30 CET an hour later is not a tick
      "2026-10-26T01:30:00.000Z", // 02:30 CET
    ]);
  });

  it("fires exactly once on every local day of the year", () => {
    const ticks = ticksBetween(daily, Date.UTC(2025, 11, 31, 23), Date.UTC(2026, 11, 31, 23));
    const days = ticks.map((t) => wall(t, BERLIN).slice(0, 10));
    expect(days).toHaveLength(365);
    expect(new Set(days).size).toBe(365);
  });

  it("does not see the repeated 02:30 as a tick when asked from inside the repeated hour", () => {
    // 00:45 UTC is 02:45 CEST, after the tick, before the wall clock shows 02:30 again.
    expect(iso(nextTick(daily, Date.UTC(2026, 9, 25, 0, 45))!)).toBe("2026-10-26T01:30:00.000Z");
  });

  it("catches up the fall-back tick once after downtime through the repeated hour", () => {
    const lastTick = Date.UTC(2026, 9, 24, 0, 30);
    const now = Date.UTC(2026, 9, 25, 1, 45); // 02:45 CET, after both 02:30s
    expect(dueTicks(daily, lastTick, now, 0)).toEqual({
      due: Date.UTC(2026, 9, 25, 0, 30),
      next: Date.UTC(2026, 9, 26, 1, 30),
    });
    // Once the first 02:30 is enqueued, the second one is nothing.
    expect(dueTicks(daily, Date.UTC(2026, 9, 25, 0, 30), Date.UTC(2026, 9, 25, 1, 30), 0).due).toBeNull();
  });
});

describe("other patterns across DST in Europe/Berlin", () => {
  it("a list of fixed hours fires once per listed hour each day", () => {
    const twice = schedule("30 2,14 * * *", BERLIN);
    const ticks = ticksBetween(twice, Date.UTC(2025, 11, 31, 23), Date.UTC(2026, 11, 31, 23));
    expect(ticks).toHaveLength(730);
    const spring = ticksBetween(twice, Date.UTC(2026, 2, 28, 23), Date.UTC(2026, 2, 29, 22)).map((t) => wall(t, BERLIN));
    expect(spring).toEqual(["2026-03-29 03:00:00", "2026-03-29 14:30:00"]);
  });

  it("a range of fixed hours moves the missing time to 03:00 and runs a repeated time once", () => {
    const range = schedule("30 1-3 * * *", BERLIN);
    expect(ticksBetween(range, Date.UTC(2026, 2, 28, 23), Date.UTC(2026, 2, 29, 22)).map(iso)).toEqual([
      "2026-03-29T00:30:00.000Z", // 01:30 CET
      "2026-03-29T01:00:00.000Z", // 02:30 -> 03:00 CEST
      "2026-03-29T01:30:00.000Z", // 03:30 CEST
    ]);
    expect(ticksBetween(range, Date.UTC(2026, 9, 24, 22), Date.UTC(2026, 9, 25, 22)).map(iso)).toEqual([
      "2026-10-24T23:30:00.000Z", // 01:30 CEST
      "2026-10-25T00:30:00.000Z", // 02:30 CEST
      "2026-10-25T02:30:00.000Z", // 03:30 CET
    ]);
  });

  it("an hourly pattern keeps one hour of real time between ticks (23 ticks in spring, 25 in autumn)", () => {
    const hourly = schedule("0 * * * *", BERLIN);
    const springDay = ticksBetween(hourly, Date.UTC(2026, 2, 28, 23), Date.UTC(2026, 2, 29, 22));
    const fallDay = ticksBetween(hourly, Date.UTC(2026, 9, 24, 22), Date.UTC(2026, 9, 25, 23));
    expect(springDay).toHaveLength(23);
    expect(fallDay).toHaveLength(25);
    for (const day of [springDay, fallDay]) {
      for (let i = 1; i < day.length; i++) expect(day[i] - day[i - 1]).toBe(HOUR);
    }
  });

  it("gives the same ticks whichever instant the search starts from", () => {
    // Every minute of both transition nights: the next tick after x is the first tick of the
    // full enumeration after x, so tick identities never depend on when a process asks.
    const nights = [Date.UTC(2026, 2, 28, 22), Date.UTC(2026, 9, 24, 22)];
    for (const cron of ["30 2 * * *", "*/30 * * * *", "30 1-3 * * *", "0 0-23/2 * * *"]) {
      const s = schedule(cron, BERLIN);
      for (const from of nights) {
        const all = ticksBetween(s, from, from + 72 * HOUR);
        for (let x = from; x < from + 6 * HOUR; x += 60_000) {
          expect(nextTick(s, x), `${cron} after ${iso(x)}`).toBe(all.find((t) => t > x));
        }
      }
    }
  });
});

describe("America/New_York", () => {
  const NY = "America/New_York";

  it("a 02:30 schedule runs at 03:00 EDT on 8 March 2026", () => {
    const ticks = ticksBetween(schedule("30 2 * * *", NY), Date.UTC(2026, 2, 7, 12), Date.UTC(2026, 2, 9, 12));
    expect(ticks.map((t) => wall(t, NY))).toEqual(["2026-03-08 03:00:00", "2026-03-09 02:30:00"]);
  });

  it("a 01:30 schedule runs once on 1 November 2026, at 01:30 EDT", () => {
    const ticks = ticksBetween(schedule("30 1 * * *", NY), Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 2));
    expect(ticks.map(iso)).toEqual(["2026-11-01T05:30:00.000Z"]);
  });
});
