import { describe, expect, it } from "vitest";
import { runUserCode } from "../../../server/executor/sandbox/index.ts";

const run = (code: string, globals: Record<string, unknown> = {}) => runUserCode({ code, globals });

describe("runUserCode: results", () => {
  it.each([
    ["a number", "return 1.5", 1.5],
    ["a string", "return 'héllo'", "héllo"],
    ["true", "return true", true],
    ["false", "return false", false],
    ["null", "return null", null],
    ["an array", "return [1, 'a', [true]]", [1, "a", [true]]],
    ["an object", "return { a: { b: [null] } }", { a: { b: [null] } }],
    ["undefined as null", "return undefined", null],
    ["no return as null", "const x = 1;", null],
    ["NaN as null (JSON)", "return NaN", null],
    ["a Date as its ISO string", "return new Date(0)", "1970-01-01T00:00:00.000Z"],
    ["undefined properties left out (JSON)", "return { a: undefined, b: 1 }", { b: 1 }],
  ])("returns %s", async (_label, code, expected) => {
    expect(await run(code)).toEqual({ ok: true, value: expected, logs: [] });
  });

  it("runs the code as the body of an async function: await works", async () => {
    const outcome = await run("const a = await Promise.resolve(20);\nconst b = await (async () => 1)();\nreturn a + b");
    expect(outcome).toEqual({ ok: true, value: 21, logs: [] });
  });

  it("refuses values that are not JSON-compatible, with a clear message", async () => {
    expect(await run("return () => 1")).toMatchObject({
      ok: false,
      error: "The result is not JSON-compatible: it is a function",
    });
    expect(await run("return { f() {} }")).toMatchObject({
      ok: false,
      error: 'The result is not JSON-compatible: it contains a function (at "f")',
    });
    expect(await run("return Symbol('s')")).toMatchObject({ error: "The result is not JSON-compatible: it is a symbol" });
    expect(await run("return { n: 10n }")).toMatchObject({
      error: 'The result is not JSON-compatible: it contains a BigInt (at "n")',
    });
    expect(await run("const o = {}; o.self = o; return o")).toMatchObject({
      ok: false,
      error: "The result is not JSON-compatible: it contains a circular reference",
    });
  });

  it("refuses a result larger than maxOutputBytes (counted as UTF-8 JSON)", async () => {
    const small = await runUserCode({ code: "return 'é'.repeat(10)", globals: {}, limits: { maxOutputBytes: 22 } });
    expect(small).toMatchObject({ ok: true, value: "é".repeat(10) });
    const big = await runUserCode({ code: "return 'é'.repeat(11)", globals: {}, limits: { maxOutputBytes: 22 } });
    expect(big).toEqual({ ok: false, error: "The result is larger than 22 bytes as JSON", logs: [] });
    const object = await runUserCode({ code: "return { a: 'x'.repeat(100) }", globals: {}, limits: { maxOutputBytes: 50 } });
    expect(object).toMatchObject({ ok: false, error: "The result is larger than 50 bytes as JSON" });
  });

  it("uses its own JSON.stringify even when the code replaced the global one", async () => {
    const outcome = await run("JSON.stringify = () => 'not json'; return { a: 1 }");
    expect(outcome).toEqual({ ok: true, value: { a: 1 }, logs: [] });
  });
});

describe("runUserCode: globals", () => {
  it("sees each global by name", async () => {
    const globals = { input: { items: [1, 2, 3] }, __ref0: 10, variable: "v", loop: null, missing: undefined };
    const outcome = await run("return [input.items.length, __ref0, variable, loop, missing === undefined]", globals);
    expect(outcome).toEqual({ ok: true, value: [3, 10, "v", null, true], logs: [] });
  });

  it("gets deep copies: changes stay inside the sandbox", async () => {
    const input = { user: { name: "Ann" }, tags: ["a"] };
    const outcome = await run("input.user.name = 'Bob'; input.tags.push('b'); return input", { input });
    expect(outcome).toMatchObject({ ok: true, value: { user: { name: "Bob" }, tags: ["a", "b"] } });
    expect(input).toEqual({ user: { name: "Ann" }, tags: ["a"] });
  });

  it("binds them read-only", async () => {
    expect(await run("input = 5; return input", { input: 1 })).toMatchObject({ ok: true, value: 1 });
    const strict = await run("'use strict';\ninput = 5", { input: 1 });
    expect(strict).toMatchObject({ ok: false });
    expect(strict.ok === false && strict.error).toMatch(/^TypeError: .* \(line 2\)$/);
  });

  it("reports globals that are not JSON-compatible instead of throwing", async () => {
    expect(await run("return 1", { big: 1n })).toMatchObject({
      ok: false,
      error: expect.stringContaining("The inputs of the function are not JSON-compatible"),
    });
    expect(await run("return 1", { console: 1 })).toMatchObject({
      ok: false,
      error: 'The global name "console" is reserved',
    });
  });

  it("refuses inputs that cannot fit in the memory limit before running anything", async () => {
    const outcome = await runUserCode({
      code: "return input.length",
      globals: { input: "x".repeat(3_000_000) },
      limits: { memoryBytes: 8 * 1024 * 1024 },
    });
    expect(outcome).toEqual({ ok: false, error: "Function exceeded the memory limit (8 MiB)", logs: [] });
  });

  it("passes host values as JSON, never as host objects", async () => {
    const outcome = await run("return [typeof when, when, typeof fn]", { when: new Date(0), fn: () => 1 });
    expect(outcome).toEqual({ ok: true, value: ["string", "1970-01-01T00:00:00.000Z", "undefined"], logs: [] });
  });
});

describe("runUserCode: errors", () => {
  it("reports a thrown error as '<Name>: <message> (line N)'", async () => {
    const outcome = await run("const a = 1;\n\nthrow new TypeError('bad input')");
    expect(outcome).toEqual({ ok: false, error: "TypeError: bad input (line 3)", logs: [] });
  });

  it("reports runtime errors of the engine with their line", async () => {
    expect(await run("const a = null;\nreturn a.b")).toMatchObject({
      error: "TypeError: cannot read property 'b' of null (line 2)",
    });
    expect(await run("return nope")).toMatchObject({ error: "ReferenceError: 'nope' is not defined (line 1)" });
  });

  it("reports custom error classes, rejected promises and thrown non-errors", async () => {
    const custom = "class AppError extends Error { constructor(m) { super(m); this.name = 'AppError' } }\nthrow new AppError('x')";
    expect(await run(custom)).toMatchObject({ error: expect.stringMatching(/^AppError: x/) });
    expect(await run("await Promise.reject(new RangeError('r'))")).toMatchObject({ error: "RangeError: r (line 1)" });
    expect(await run("throw 'boom'")).toMatchObject({ ok: false, error: "Error: boom" });
    expect(await run("throw { code: 7 }")).toMatchObject({ ok: false, error: 'Error: {"code":7}' });
  });

  it("reports syntax errors as 'SyntaxError: ...'", async () => {
    const outcome = await run("const a = 1;\nreturn a +");
    expect(outcome.ok).toBe(false);
    expect(outcome.ok === false && outcome.error).toMatch(/^SyntaxError: .+ \(line 2\)$/);
    expect(await run("if (true) {")).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError: /) });
  });

  it("fails a function that awaits a promise that never settles", async () => {
    expect(await run("await new Promise(() => {})")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Function never finished"),
    });
  });
});
