import { describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_LIMITS, runUserCode } from "../../../server/executor/sandbox/index.ts";

const run = (code: string, limits = {}) => runUserCode({ code, globals: {}, limits });

describe("sandbox limits", () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_SANDBOX_LIMITS).toEqual({
      timeoutMs: 5_000,
      memoryBytes: 64 * 1024 * 1024,
      maxLogEntries: 100,
      maxOutputBytes: 1024 * 1024,
    });
  });

  it("stops an infinite loop with the time-limit message, and the next run works", async () => {
    expect(await run("while (true) {}", { timeoutMs: 50 })).toEqual({
      ok: false,
      error: "Function timed out after 50 ms",
      logs: [],
    });
    expect(await run("return 'next'")).toEqual({ ok: true, value: "next", logs: [] });
  });

  it("times out code that catches, loops in awaited jobs, or loops while formatting a log line", async () => {
    const caught = "for (;;) { try { while (true) {} } catch (e) {} }";
    expect(await run(caught, { timeoutMs: 50 })).toMatchObject({ error: "Function timed out after 50 ms" });
    const jobs = "async function f() { await null; return f() }\nreturn f()";
    expect(await run(jobs, { timeoutMs: 50 })).toMatchObject({ error: "Function timed out after 50 ms" });
    const logging = "try { console.log({ toJSON() { while (true) {} } }) } catch (e) {}\nreturn 1";
    expect(await run(logging, { timeoutMs: 50 })).toMatchObject({ error: "Function timed out after 50 ms" });
  });

  it("keeps logs written before the time limit", async () => {
    const outcome = await run("console.log('started'); while (true) {}", { timeoutMs: 50 });
    expect(outcome).toEqual({
      ok: false,
      error: "Function timed out after 50 ms",
      logs: [{ level: "log", message: "started" }],
    });
  });

  it("stops a huge allocation with the memory message, and the next run works", async () => {
    const arrays = await run("const a = []; while (true) a.push(new Array(1e6).fill(1))");
    expect(arrays).toEqual({ ok: false, error: "Function exceeded the memory limit (64 MiB)", logs: [] });
    const text = await run("const s = 'x'.repeat(2 ** 29); return s.length");
    expect(text).toMatchObject({ ok: false, error: "Function exceeded the memory limit (64 MiB)" });
    const kept = await run("globalThis.keep = []; while (true) keep.push('y'.repeat(1e5) + keep.length)");
    expect(kept).toMatchObject({ ok: false, error: "Function exceeded the memory limit (64 MiB)" });
    expect(await run("return new Array(1000).fill(1).length")).toMatchObject({ ok: true, value: 1000 });
  });

  it("names the configured memory limit", async () => {
    const outcome = await run("const a = []; while (true) a.push(new Array(1e5).fill(1))", {
      memoryBytes: 8 * 1024 * 1024,
    });
    expect(outcome).toMatchObject({ ok: false, error: "Function exceeded the memory limit (8 MiB)" });
  });

  it("turns deep recursion into a clean error, and the next run works", async () => {
    expect(await run("function f(n) { return f(n + 1) + 1 }\nreturn f(0)")).toEqual({
      ok: false,
      error: "Function exceeded the maximum call stack size (too deep recursion)",
      logs: [],
    });
    // Nesting that exhausts the host's native stack before QuickJS' own guard trips.
    const nested = await run("return eval('('.repeat(1e5) + '1' + ')'.repeat(1e5))");
    expect(nested).toMatchObject({ ok: false, error: "Function exceeded the maximum call stack size (too deep recursion)" });
    expect(await run("let a = []; for (let i = 0; i < 1e5; i++) a = [a];\nreturn a")).toMatchObject({ ok: false });
    expect(await run("function f(n) { return n === 0 ? 0 : f(n - 1) + 1 }\nreturn f(300)")).toEqual({
      ok: true,
      value: 300,
      logs: [],
    });
  });

  it("rejects invalid limits as a caller bug", async () => {
    await expect(run("return 1", { timeoutMs: 0 })).rejects.toThrow(RangeError);
    await expect(run("return 1", { memoryBytes: Number.NaN })).rejects.toThrow(RangeError);
  });
});

describe("sandbox isolation between runs", () => {
  it("gives every run a fresh global scope", async () => {
    await run("globalThis.leak = 1; Object.prototype.polluted = true; Array.prototype.push = null; return 1");
    const next = await run("return [typeof leak, ({}).polluted, [1].concat([2]).length, typeof [].push]");
    expect(next).toEqual({ ok: true, value: ["undefined", undefined, 2, "function"].map((v) => v ?? null), logs: [] });
  });

  it("stays correct over 2,000 runs (handles and runtimes are freed)", async () => {
    for (let i = 0; i < 2_000; i++) {
      const outcome = await runUserCode({
        code: i % 2 ? "return input.n * 2" : "console.log(input.n); return { n: input.n }",
        globals: { input: { n: i } },
      });
      const expected = i % 2 ? i * 2 : { n: i };
      if (!outcome.ok || JSON.stringify(outcome.value) !== JSON.stringify(expected)) {
        expect.fail(`run ${i} gave ${JSON.stringify(outcome)}`);
      }
    }
    expect(await run("throw new Error('still clean')")).toMatchObject({ error: "Error: still clean (line 1)" });
  });
});
