import { describe, expect, it } from "vitest";
import { parseSchedule, validateSchedule } from "../../../server/triggers/schedule/index.ts";

const cronErrors = (cron: unknown) => validateSchedule({ cron, timezone: "UTC" });

describe("validateSchedule: cron", () => {
  it.each([
    ["5 fields", "*/15 * * * *"],
    ["named months and days", "0 9 * jan-mar MON-fri"],
    ["lists, ranges and range steps", "0,30 8-18/2 1,15 * *"],
    ["6 fields with one second", "30 */5 * * * *"],
    ["a nickname", "@hourly"],
    ["a nickname in capitals", "@DAILY"],
    ["croner's extensions", "0 9 L * *"],
    ["the nth weekday", "0 9 * * FRI#2"],
    ["extra whitespace", "  0   9 * * *  "],
  ])("accepts %s (%s)", (_label, cron) => {
    expect(cronErrors(cron)).toEqual([]);
  });

  it("requires the cron", () => {
    expect(validateSchedule({})).toEqual(["cron is required"]);
    expect(cronErrors(null)).toEqual(["cron is required"]);
    expect(cronErrors("   ")).toEqual(["cron is required"]);
  });

  it("names the type of a cron that is not a string", () => {
    expect(cronErrors(5)).toEqual(["cron must be a string, got number"]);
    expect(cronErrors(["0", "9"])).toEqual(["cron must be a string, got array"]);
  });

  it("counts the fields", () => {
    expect(cronErrors("* * *")).toEqual([
      "cron must have 5 fields (minute hour day month weekday), got 3 (6 fields are read as second minute hour day month weekday)",
    ]);
    // The year field croner offers is not: it would let a schedule end.
    expect(cronErrors("0 0 0 1 1 * 2030")[0]).toMatch(/^cron must have 5 fields \(minute hour day month weekday\), got 7 /);
  });

  it("names the field that is wrong and what it takes", () => {
    expect(cronErrors("61 * * * *")).toEqual([
      'cron minute field "61" is invalid (values 0-59; lists a,b, ranges a-b and steps */n or a-b/n are allowed)',
    ]);
    expect(cronErrors("0 24 * * *")[0]).toMatch(/^cron hour field "24" is invalid \(values 0-23;/);
    expect(cronErrors("0 0 32 * *")[0]).toMatch(/^cron day of month field "32" is invalid \(values 1-31/);
    expect(cronErrors("0 0 * 13 *")[0]).toMatch(/^cron month field "13" is invalid \(values 1-12 or JAN-DEC;/);
    expect(cronErrors("0 0 * * 8")[0]).toMatch(/^cron day of week field "8" is invalid \(values 0-7 or SUN-SAT/);
    expect(cronErrors("MON * * * *")[0]).toMatch(/^cron minute field "MON" is invalid/);
    expect(cronErrors("0 0 * * * 9")[0]).toMatch(/^cron day of week field "9" is invalid/);
  });

  it("rejects malformed steps and ranges", () => {
    expect(cronErrors("*/0 * * * *")[0]).toMatch(/^cron minute field "\*\/0" is invalid/);
    expect(cronErrors("5/5 * * * *")[0]).toMatch(/^cron minute field "5\/5" is invalid/);
    expect(cronErrors("0 20-10 * * *")[0]).toMatch(/^cron hour field "20-10" is invalid/);
  });

  it("holds 6-field patterns to one tick per minute", () => {
    for (const seconds of ["*", "*/5", "0,30", "0-10", "60", "?"]) {
      expect(cronErrors(`${seconds} * * * * *`)).toEqual([
        `cron second field "${seconds}" must be a single second 0-59: a schedule fires at most once per minute`,
      ]);
    }
    expect(cronErrors("59 * * * * *")).toEqual([]);
  });

  it("rejects nicknames it cannot run", () => {
    expect(cronErrors("@reboot")).toEqual(["cron @reboot is not supported: a schedule needs a time pattern"]);
    expect(cronErrors("@fortnightly")).toEqual([
      "unknown cron nickname @fortnightly (use one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly)",
    ]);
  });

  it("rejects a pattern no date matches", () => {
    expect(cronErrors("0 0 30 2 *")).toEqual(['cron "0 0 30 2 *" never fires: no date matches it']);
    expect(cronErrors("0 0 31 4,6 *")).toEqual(['cron "0 0 31 4,6 *" never fires: no date matches it']);
    // 29 February does come round.
    expect(cronErrors("0 0 29 2 *")).toEqual([]);
  });

  it("bounds the length", () => {
    expect(cronErrors(`0 0 1 * ${"1,".repeat(60)}1`)).toEqual(["cron is too long (at most 120 characters)"]);
  });
});

describe("validateSchedule: timezone", () => {
  const tzErrors = (timezone: unknown) => validateSchedule({ cron: "0 9 * * *", timezone });

  it.each(["Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+1", "UTC", "europe/berlin"])("accepts %s", (tz) => {
    expect(tzErrors(tz)).toEqual([]);
  });

  it("defaults when absent or blank", () => {
    expect(tzErrors(undefined)).toEqual([]);
    expect(tzErrors(null)).toEqual([]);
    expect(tzErrors("  ")).toEqual([]);
  });

  it("names an unknown zone", () => {
    expect(tzErrors("Mars/Olympus")).toEqual([
      "unknown timezone Mars/Olympus (expected an IANA name such as Europe/Berlin or UTC)",
    ]);
  });

  it("refuses UTC offsets, which only some engines accept", () => {
    expect(tzErrors("+01:00")).toEqual(["unknown timezone +01:00 (expected an IANA name such as Europe/Berlin or UTC)"]);
  });

  it("names the type of a zone that is not a string", () => {
    expect(tzErrors(1)).toEqual(["timezone must be a string, got number"]);
    expect(tzErrors({ name: "UTC" })).toEqual(["timezone must be a string, got object"]);
  });

  it("bounds the length without echoing the value", () => {
    expect(tzErrors(`Europe/${"x".repeat(80)}`)).toEqual(["timezone is too long (at most 64 characters)"]);
  });

  it("reports a bad cron and a bad zone together", () => {
    expect(validateSchedule({ cron: "* *", timezone: "Mars/Olympus" })).toHaveLength(2);
  });
});

describe("parseSchedule", () => {
  it("normalizes the pattern and defaults the zone to UTC", () => {
    expect(parseSchedule({ cron: "  0   9 * *  MON " })).toEqual({ cron: "0 9 * * MON", timezone: "UTC" });
    expect(parseSchedule({ cron: "@Weekly", timezone: " Europe/Berlin " })).toEqual({
      cron: "@weekly",
      timezone: "Europe/Berlin",
    });
  });

  it("joins every problem into one error", () => {
    expect(parseSchedule({ cron: "* * *", timezone: "Mars/Olympus" })).toEqual({
      error:
        "cron must have 5 fields (minute hour day month weekday), got 3 (6 fields are read as second minute hour day month weekday); " +
        "unknown timezone Mars/Olympus (expected an IANA name such as Europe/Berlin or UTC)",
    });
    expect(parseSchedule({ cron: "0 9 * * *", timezone: "Mars/Olympus" })).toEqual({
      error: "unknown timezone Mars/Olympus (expected an IANA name such as Europe/Berlin or UTC)",
    });
  });
});
