import { describe, expect, it } from "vitest";
import {
  dueTicks,
  nextTick,
  parseSchedule,
  scheduleTickKey,
  type Schedule,
} from "../../../server/triggers/schedule/index.ts";

function schedule(cron: string, timezone = "UTC"): Schedule {
  const parsed = parseSchedule({ cron, timezone });
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
}

const MINUTE = 60_000;
const at = (h: number, m: number, s = 0) => Date.UTC(2026, 0, 15, h, m, s);
const everyFiveMinutes = schedule("*/5 * * * *");

describe("dueTicks", () => {
  it("enqueues nothing before the first tick after deployment", () => {
    expect(dueTicks(everyFiveMinutes, null, at(12, 3), at(12, 1))).toEqual({ due: null, next: at(12, 5) });
  });

  it("never enqueues a tick from before deployment", () => {
    // Deployed at 12:01; the 12:00 tick is history even though now is past it.
    expect(dueTicks(everyFiveMinutes, null, at(12, 4, 59), at(12, 1)).due).toBeNull();
    // A last tick from an earlier deployment does not let older ticks through either.
    expect(dueTicks(everyFiveMinutes, at(11, 0), at(12, 4), at(12, 1))).toEqual({ due: null, next: at(12, 5) });
  });

  it("counts a tick at the very instant of deployment", () => {
    expect(dueTicks(everyFiveMinutes, null, at(12, 0, 30), at(12, 0))).toEqual({ due: at(12, 0), next: at(12, 5) });
  });

  it("enqueues the tick that has come, and waits for the next", () => {
    expect(dueTicks(everyFiveMinutes, at(12, 0), at(12, 5, 2), at(9, 0))).toEqual({ due: at(12, 5), next: at(12, 10) });
  });

  it("counts a tick due at exactly now", () => {
    expect(dueTicks(everyFiveMinutes, at(12, 0), at(12, 5), at(9, 0))).toEqual({ due: at(12, 5), next: at(12, 10) });
  });

  it("does not enqueue the last tick again", () => {
    expect(dueTicks(everyFiveMinutes, at(12, 5), at(12, 9, 59), at(9, 0))).toEqual({ due: null, next: at(12, 10) });
  });

  it("collapses the ticks missed during downtime into the most recent one", () => {
    // Down from 12:00 to 13:42: 20 ticks were missed, one runs.
    expect(dueTicks(everyFiveMinutes, at(12, 0), at(13, 42), at(9, 0))).toEqual({ due: at(13, 40), next: at(13, 45) });
  });

  it("collapses a year of per-minute ticks", () => {
    const perMinute = schedule("* * * * *");
    const now = Date.UTC(2027, 0, 15, 12, 0, 30);
    expect(dueTicks(perMinute, at(12, 0), now, at(9, 0))).toEqual({
      due: Date.UTC(2027, 0, 15, 12, 0),
      next: Date.UTC(2027, 0, 15, 12, 1),
    });
  });

  it("works with second-level patterns", () => {
    const atSecond30 = schedule("30 * * * * *");
    expect(dueTicks(atSecond30, at(12, 0, 30), at(12, 7, 29), at(9, 0))).toEqual({
      due: at(12, 6, 30),
      next: at(12, 7, 30),
    });
  });

  it("waits for the next tick when the last one recorded is in the future (clock skew)", () => {
    expect(dueTicks(everyFiveMinutes, at(12, 10), at(12, 9), at(9, 0))).toEqual({ due: null, next: at(12, 15) });
  });

  it("agrees with walking every tick one by one", () => {
    // Deterministic pseudo-random cases across patterns, zones and downtimes (DST nights included).
    const schedules = [
      schedule("*/7 * * * *"),
      schedule("30 2 * * *", "Europe/Berlin"),
      schedule("0 * * * *", "Europe/Berlin"),
      schedule("15 9 * * MON-FRI", "America/New_York"),
      schedule("45 10 L * *", "Asia/Kolkata"),
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const base = Date.UTC(2026, 2, 1);
    for (let i = 0; i < 150; i++) {
      const s = schedules[i % schedules.length];
      const deployedAt = base + Math.floor(random() * 240 * 86_400_000);
      const lastTick = random() < 0.3 ? null : deployedAt + Math.floor(random() * 2 * 86_400_000);
      const now = (lastTick ?? deployedAt) + Math.floor(random() * 3 * 86_400_000);

      let due: number | null = null;
      let tick = nextTick(s, Math.max(lastTick ?? -Infinity, deployedAt - 1));
      while (tick !== null && tick <= now) {
        due = tick;
        tick = nextTick(s, tick);
      }
      const expected = { due, next: tick };
      expect(dueTicks(s, lastTick, now, deployedAt), JSON.stringify({ s, lastTick, now, deployedAt })).toEqual(expected);
    }
  });

  it("returns no next tick when the pattern has none left", () => {
    const yearly = schedule("@yearly");
    expect(dueTicks(yearly, null, Date.UTC(9999, 5, 1), Date.UTC(9999, 1, 1))).toEqual({ due: null, next: null });
  });
});

describe("scheduleTickKey", () => {
  it("identifies a tick by workflow and scheduled time", () => {
    expect(scheduleTickKey("wf_abc", at(12, 5))).toBe(`schedule:wf_abc:${at(12, 5)}`);
    expect(scheduleTickKey("wf_abc", at(12, 5))).not.toBe(scheduleTickKey("wf_abc", at(12, 5) + MINUTE));
    expect(scheduleTickKey("wf_abc", at(12, 5))).not.toBe(scheduleTickKey("wf_abd", at(12, 5)));
  });
});
