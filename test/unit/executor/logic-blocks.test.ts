import { describe, expect, it } from "vitest";
import { echo, fn, graph, run } from "./engine-helpers.ts";

describe("function block", () => {
  it("binds references to values, so code can use any data as it is", async () => {
    const state = graph({ api: echo("API", { items: [1, 2, 3] }), f: fn("Count", "return <api.data>.length + <API.data>[0]") }, [
      ["start", "api"],
      ["api", "f"],
    ]);
    state.blocks.api.params = { value: { data: [5, 6] } };
    const { result } = await run(state);
    expect(result.output).toEqual({ result: 7, stdout: "" });
  });

  it("never pastes a value into the code as text", async () => {
    const hostile = '"); throw new Error("injected"); ("';
    const state = graph({ f: fn("F", "return [<start.text>, typeof <start.text>, <start.missing>]") }, [["start", "f"]]);
    const { result } = await run(state, { input: { text: hostile } });
    expect(result).toMatchObject({ success: true, output: { result: [hostile, "string", null] } });
  });

  it("sees input and variables as globals, and returns console lines as stdout", async () => {
    const state = graph(
      {
        v: { type: "variables", name: "Vars", params: { variables: { greeting: "hi" } } },
        f: fn("F", 'console.log("n is", input.n); console.warn("careful"); return variable.greeting + " " + input.n'),
      },
      [
        ["start", "v"],
        ["v", "f"],
      ],
    );
    const { result } = await run(state, { input: { n: 3 } });
    expect(result.output).toEqual({ result: "hi 3", stdout: "n is 3\n[warn] careful" });
    expect(result.traceSpans[2]).toMatchObject({ type: "function", input: { code: expect.stringContaining("console.log") }, output: { stdout: "n is 3\n[warn] careful" } });
  });

  it("fails the block when the code throws, keeping its console lines", async () => {
    const state = graph({ f: fn("Boom", 'console.log("before"); throw new Error("boom")') }, [["start", "f"]]);
    const { result } = await run(state);
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Block "Boom" failed: .*boom/);
    expect(result.traceSpans[1]).toMatchObject({ status: "error", output: { result: null, stdout: "before" } });
  });
});

describe("condition block", () => {
  const state = () =>
    graph(
      {
        check: {
          type: "condition",
          name: "Check",
          params: {
            conditions: [
              { id: "big", expression: "<start.n> > 10" },
              { id: "mid", expression: "<start.n> > 5" },
            ],
          },
        },
        big: echo("Big", "big"),
        mid: echo("Mid", "mid"),
        other: echo("Other", "other"),
      },
      [
        ["start", "check"],
        ["check", "big", "condition-big"],
        ["check", "mid", "condition-mid"],
        ["check", "other", "condition-else"],
      ],
    );

  it("takes the first condition that holds, in order", async () => {
    const { result } = await run(state(), { input: { n: 20 } });
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "check", "big"]);
    expect(result.traceSpans[1].output).toEqual({ conditionResult: true, selectedConditionId: "big", selectedHandle: "condition-big" });
    const mid = await run(state(), { input: { n: 7 } });
    expect(mid.result.traceSpans.map((s) => s.blockId)).toEqual(["start", "check", "mid"]);
    expect(mid.result.output).toBe("mid");
  });

  it("takes the else branch when no condition holds", async () => {
    const { result } = await run(state(), { input: { n: 1 } });
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "check", "other"]);
    expect(result.traceSpans[1].output).toEqual({ conditionResult: false, selectedConditionId: null, selectedHandle: "condition-else" });
    expect(result.traceSpans[1].input).toEqual({
      conditions: [
        { id: "big", expression: "<start.n> > 10" },
        { id: "mid", expression: "<start.n> > 5" },
      ],
    });
  });

  it("fails when an expression throws, naming the condition", async () => {
    const { result } = await run(state(), { input: {} });
    expect(result.success).toBe(true); // undefined > 10 is false, not an error
    const broken = state();
    (broken.blocks.check.params as { conditions: Array<{ expression: string }> }).conditions[0].expression = "<start.n>.x.y";
    const failed = await run(broken, { input: { n: 1 } });
    expect(failed.result.success).toBe(false);
    expect(failed.result.error).toMatch(/^Block "Check" failed: condition "big" failed: TypeError/);
  });
});

describe("variables block", () => {
  it("sets variables that later blocks read, later writes replacing earlier ones", async () => {
    const state = graph(
      {
        v1: { type: "variables", name: "Set", params: { variables: { count: "<start.n>", label: "n=<start.n>" } } },
        v2: { type: "variables", name: "Bump", params: { variables: { count: 99 } } },
        out: echo("Out", { count: "<variable.count>", label: "<variable.label>", all: "<variable>" }),
      },
      [
        ["start", "v1"],
        ["v1", "v2"],
        ["v2", "out"],
      ],
    );
    const { result } = await run(state, { input: { n: 4 } });
    expect(result.traceSpans[1].output).toEqual({ count: 4, label: "n=4" });
    expect(result.output).toEqual({ count: 99, label: "n=4", all: { count: 99, label: "n=4" } });
  });
});

describe("wait block", () => {
  it("waits through the executor's sleep", async () => {
    const state = graph({ w: { type: "wait", name: "Wait", params: { ms: "<start.ms>" } } }, [["start", "w"]]);
    const { result, sleeps } = await run(state, { input: { ms: 250 } });
    expect(sleeps).toEqual([250]);
    expect(result.output).toEqual({ waitedMs: 250 });
    expect(result.traceSpans[1].duration).toBe(250);
  });

  it("fails on a referenced wait that is out of bounds", async () => {
    const state = graph({ w: { type: "wait", name: "Wait", params: { ms: "<start.ms>" } } }, [["start", "w"]]);
    const { result, sleeps } = await run(state, { input: { ms: 300_001 } });
    expect(sleeps).toEqual([]);
    expect(result.error).toBe('Block "Wait" failed: ms must be an integer from 0 to 300000 (got 300001)');
  });
});
