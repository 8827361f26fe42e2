import { describe, expect, it } from "vitest";
import { evaluateExpression } from "../../../server/executor/sandbox/index.ts";

const evaluate = (expression: string, globals: Record<string, unknown> = {}) =>
  evaluateExpression({ expression, globals });

describe("evaluateExpression", () => {
  it.each([
    ["x > 3 && y === 'a'", { x: 4, y: "a" }, true],
    ["x > 3 && y === 'a'", { x: 2, y: "a" }, false],
    ["__ref0.status === 200", { __ref0: { status: 200 } }, true],
    ["input.items.length", { input: { items: [1, 2] } }, 2],
    ["input.items.filter(i => i > 1)", { input: { items: [1, 2, 3] } }, [2, 3]],
    ["loop.index % 2 === 0 ? 'even' : 'odd'", { loop: { index: 3 } }, "odd"],
    ["variable ?? 'fallback'", { variable: null }, "fallback"],
    ["missing", { missing: undefined }, null],
    ["x // a trailing comment", { x: 1 }, 1],
  ])("%s with %j gives %j", async (expression, globals, expected) => {
    expect(await evaluate(expression, globals)).toEqual({ ok: true, value: expected, logs: [] });
  });

  it.each([
    ["0", false],
    ["''", false],
    ["null", false],
    ["undefined", false],
    ["NaN", false],
    ["1", true],
    ["'0'", true],
    ["[]", true],
    ["({})", true],
  ])("keeps the truthiness of %s (%s)", async (expression, truthy) => {
    const outcome = await evaluate(expression);
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && Boolean(outcome.value)).toBe(truthy);
  });

  it("reports errors like runUserCode, naming the expression in limit messages", async () => {
    expect(await evaluate("input.a.b", { input: {} })).toEqual({
      ok: false,
      error: "TypeError: cannot read property 'b' of undefined (line 1)",
      logs: [],
    });
    expect(await evaluate("nope > 1")).toMatchObject({ error: "ReferenceError: 'nope' is not defined (line 1)" });
    expect(await evaluate("x >", { x: 1 })).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError: /) });
    expect(await evaluate("  ")).toMatchObject({ ok: false, error: "SyntaxError: the expression is empty" });
    expect(
      await evaluateExpression({ expression: "(() => { while (true) {} })()", globals: {}, limits: { timeoutMs: 50 } }),
    ).toMatchObject({ ok: false, error: "Expression timed out after 50 ms" });
    expect(await evaluate("() => true")).toMatchObject({
      ok: false,
      error: "The result is not JSON-compatible: it is a function",
    });
  });
});
