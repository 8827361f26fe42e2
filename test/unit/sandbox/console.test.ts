import { describe, expect, it } from "vitest";
import { runUserCode } from "../../../server/executor/sandbox/index.ts";

const run = (code: string, limits = {}) => runUserCode({ code, globals: {}, limits });

describe("sandbox console", () => {
  it("captures every level, formatting arguments like Node (strings as is, others JSON)", async () => {
    const code = [
      "console.log('text', 1, -0, true, null, undefined, { a: [1, 'x'] }, [2]);",
      "console.info('info');",
      "console.warn('warn');",
      "console.error(new TypeError('bad'));",
      "console.debug(10n, Symbol('s'), function named() {}, () => 1);",
      "return 'done';",
    ].join("\n");
    expect(await run(code)).toEqual({
      ok: true,
      value: "done",
      logs: [
        { level: "log", message: 'text 1 -0 true null undefined {"a":[1,"x"]} [2]' },
        { level: "info", message: "info" },
        { level: "warn", message: "warn" },
        { level: "error", message: "TypeError: bad" },
        { level: "debug", message: "10n Symbol(s) [Function: named] [Function: (anonymous)]" },
      ],
    });
  });

  it("formats values JSON cannot hold without failing the run", async () => {
    const outcome = await run("const o = {}; o.self = o;\nconsole.log(o);\nreturn 1");
    expect(outcome).toMatchObject({ ok: true, logs: [{ level: "log", message: "[Unserializable: circular reference]" }] });
  });

  it("keeps maxLogEntries lines, then one '... N more lines dropped' entry", async () => {
    const outcome = await run("for (let i = 0; i < 105; i++) console.log('line ' + i);\nreturn 1", { maxLogEntries: 100 });
    expect(outcome.logs).toHaveLength(101);
    expect(outcome.logs[99]).toEqual({ level: "log", message: "line 99" });
    expect(outcome.logs[100]).toEqual({ level: "warn", message: "... 5 more lines dropped" });
    const single = await run("console.log(1); console.log(2);", { maxLogEntries: 1 });
    expect(single.logs).toEqual([
      { level: "log", message: "1" },
      { level: "warn", message: "... 1 more line dropped" },
    ]);
    expect((await run("console.log(1)", { maxLogEntries: 0 })).logs).toEqual([
      { level: "warn", message: "... 1 more line dropped" },
    ]);
  });

  it("cuts each line at 10,000 characters", async () => {
    const outcome = await run("console.log('x'.repeat(50000), 'tail')");
    expect(outcome.logs).toHaveLength(1);
    expect(outcome.logs[0].message).toBe(`${"x".repeat(10_000)}... (line truncated)`);
  });

  it("returns the logs of failed runs too", async () => {
    expect(await run("console.log('before');\nthrow new Error('after')")).toEqual({
      ok: false,
      error: "Error: after (line 2)",
      logs: [{ level: "log", message: "before" }],
    });
  });

  it("cannot be replaced by user code, and a value that fails to format does not fail the run", async () => {
    expect(await run("console = null; console.log('still');")).toMatchObject({ logs: [{ message: "still" }] });
    const throwing = "console.log('v:', { toJSON() { throw new Error('nope') } });\nreturn 'went on'";
    expect(await run(throwing)).toEqual({
      ok: true,
      value: "went on",
      logs: [{ level: "log", message: "v: [Unserializable: nope]" }],
    });
  });
});
