import { describe, expect, it } from "vitest";
import { runUserCode } from "../../../server/executor/sandbox/index.ts";

const run = (code: string, globals: Record<string, unknown> = {}) => runUserCode({ code, globals });

describe("sandbox: no ambient I/O", () => {
  it("has no process, fetch, require, timers or host globals", async () => {
    const names = ["process", "fetch", "require", "module", "Deno", "Buffer", "setTimeout", "setInterval", "XMLHttpRequest", "WebSocket", "std", "os"];
    const outcome = await run(`return ${JSON.stringify(names)}.map((n) => typeof globalThis[n])`);
    expect(outcome).toEqual({ ok: true, value: names.map(() => "undefined"), logs: [] });
  });

  it("fails calls to them with a ReferenceError", async () => {
    expect(await run("return process.env")).toMatchObject({
      ok: false,
      error: "ReferenceError: 'process' is not defined (line 1)",
    });
    expect(await run("return require('fs')")).toMatchObject({ ok: false, error: expect.stringMatching(/^ReferenceError/) });
    expect(await run("await fetch('http://127.0.0.1/')")).toMatchObject({ ok: false, error: expect.stringMatching(/^ReferenceError/) });
  });

  it("cannot import modules, dynamically or statically", async () => {
    expect(await run("return await import('fs')")).toMatchObject({
      ok: false,
      error: "ReferenceError: could not load module 'fs'",
    });
    expect(await run("return await import('node:child_process')")).toMatchObject({ ok: false });
    expect(await run("import fs from 'fs'")).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError/) });
  });

  it("reaches nothing of the host through constructors or the global object", async () => {
    const escape = "return [typeof this.constructor.constructor('return globalThis')().process, Object.keys(globalThis).sort()]";
    expect(await run(escape, { input: 1 })).toEqual({ ok: true, value: ["undefined", ["input"]], logs: [] });
  });

  it("keeps Date.now and Math.random", async () => {
    const outcome = await run("return [typeof Date.now(), Math.random() < 1]");
    expect(outcome).toEqual({ ok: true, value: ["number", true], logs: [] });
  });
});
