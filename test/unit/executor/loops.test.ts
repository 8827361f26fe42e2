import { describe, expect, it } from "vitest";
import type { TraceSpan } from "../../../server/executor/types.ts";
import { echo, fn, graph, outline, run } from "./engine-helpers.ts";

/** start -> [loop l: a -> b] -> after */
function loopState(loop: Record<string, unknown>, body: { a?: unknown; b?: unknown } = {}) {
  return graph(
    {
      a: echo("A", body.a ?? { i: "<loop.index>", item: "<loop.item>" }),
      b: echo("B", body.b ?? { fromA: "<a>", n: "<loop.items.length>" }),
      after: echo("After", { results: "<l.results>", lastB: "<b>" }),
    },
    [
      ["start", "a"],
      ["a", "b"],
      ["b", "after"],
    ],
    { loops: { l: { nodes: ["a", "b"], ...loop } } },
  );
}

describe("for loop", () => {
  it("runs the body once per iteration; inner references read the current iteration", async () => {
    const { result } = await run(loopState({ loopType: "for", iterations: 3 }));
    expect(result.success).toBe(true);
    const results = [0, 1, 2].map((i) => ({ fromA: { i }, n: undefined }));
    expect(result.output).toEqual({ results: results.map((r) => ({ fromA: r.fromA })), lastB: { fromA: { i: 2 } } });
  });

  it("nests spans: loop -> iterations -> blocks, tagged with loopId and iterationIndex", async () => {
    const { result } = await run(loopState({ loopType: "for", iterations: 2 }));
    expect(outline(result.traceSpans)).toEqual([
      "start:Start",
      "loop:l",
      "  iteration:Iteration 0",
      "    echo:A",
      "    echo:B",
      "  iteration:Iteration 1",
      "    echo:A",
      "    echo:B",
      "echo:After",
    ]);
    const loop = result.traceSpans[1];
    expect(loop).toMatchObject({ type: "loop", blockId: "l", status: "success", input: { loopType: "for", iterations: 2 } });
    expect(loop.loopId).toBeUndefined();
    const second = loop.children[1];
    expect(second).toMatchObject({ type: "iteration", blockId: "l", loopId: "l", iterationIndex: 1, output: { fromA: { i: 1 } } });
    expect(second.children.map((s) => [s.blockId, s.loopId, s.iterationIndex])).toEqual([
      ["a", "l", 1],
      ["b", "l", 1],
    ]);
    expect(result.traceSpans[2].loopId).toBeUndefined();
  });

  it("takes its iterations from a reference, and runs zero times then follows its exits", async () => {
    const { result } = await run(loopState({ loopType: "for", iterations: "<start.n>" }), { input: { n: 0 } });
    expect(result.output).toEqual({ results: [] });
    expect(outline(result.traceSpans)).toEqual(["start:Start", "loop:l", "echo:After"]);
    const bad = await run(loopState({ loopType: "for", iterations: "<start.n>" }), { input: { n: -1 } });
    expect(bad.result).toMatchObject({ success: false, error: 'Loop "l" failed: iterations must be an integer from 0 to 1000 (got -1)' });
  });
});

describe("forEach loop", () => {
  const items = (forEachItems: unknown, input?: unknown) => run(loopState({ loopType: "forEach", forEachItems }), { input });

  it("goes through an array", async () => {
    const { result } = await items(["x", "y"]);
    expect((result.output as { results: unknown }).results).toEqual([
      { fromA: { i: 0, item: "x" }, n: 2 },
      { fromA: { i: 1, item: "y" }, n: 2 },
    ]);
  });

  it("goes through an object's entries", async () => {
    const { result } = await items({ k1: 1, k2: { deep: true } });
    expect((result.output as { results: Array<{ fromA: unknown }> }).results.map((r) => r.fromA)).toEqual([
      { i: 0, item: ["k1", 1] },
      { i: 1, item: ["k2", { deep: true }] },
    ]);
  });

  it("goes through referenced items and JSON text", async () => {
    const referenced = await items("<start.list>", { list: [10, 20, 30] });
    expect((referenced.result.output as { results: unknown[] }).results).toHaveLength(3);
    const json = await items('["p", "q"]');
    expect((json.result.output as { results: Array<{ fromA: { item: unknown } }> }).results.map((r) => r.fromA.item)).toEqual(["p", "q"]);
  });

  it("fails clearly when the referenced items are not a collection", async () => {
    const { result } = await items("<start.list>", { list: 5 });
    expect(result).toMatchObject({ success: false, error: 'Loop "l" failed: forEachItems must be an array, an object or JSON of one (got 5)' });
    expect(result.traceSpans[1]).toMatchObject({ type: "loop", status: "error" });
  });
});

describe("while and doWhile loops", () => {
  it("while checks before each iteration; the condition reads <loop.index> and the last iteration", async () => {
    const state = graph(
      { step: fn("Step", "return <loop.index> * 2"), after: echo("After", "<l.results>") },
      [
        ["start", "step"],
        ["step", "after"],
      ],
      { loops: { l: { nodes: ["step"], loopType: "while", condition: "<loop.index> === 0 || <step.result> < 4" } } },
    );
    const { result } = await run(state);
    expect(result.output).toEqual([0, 2, 4].map((n) => ({ result: n, stdout: "" })));
  });

  it("while may run zero times; doWhile runs at least once", async () => {
    const make = (loopType: string) =>
      graph({ a: echo("A", "<loop.index>"), after: echo("After", "<l.results>") }, [
        ["start", "a"],
        ["a", "after"],
      ], { loops: { l: { nodes: ["a"], loopType, condition: "false" } } });
    expect((await run(make("while"))).result.output).toEqual([]);
    expect((await run(make("doWhile"))).result.output).toEqual([0]);
  });

  it("doWhile checks after each iteration with the count done", async () => {
    const state = graph({ a: echo("A", "<loop.index>") }, [["start", "a"]], { loops: { l: { nodes: ["a"], loopType: "doWhile", condition: "<loop.index> < 3" } } });
    const { result } = await run(state);
    expect(result.output).toEqual({ results: [0, 1, 2] });
  });

  it("fails the loop when its condition throws", async () => {
    const state = graph({ a: echo("A", 1) }, [["start", "a"]], { loops: { l: { nodes: ["a"], loopType: "while", condition: "nope.x" } } });
    const { result } = await run(state);
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Loop "l" failed: the condition failed: ReferenceError/);
  });
});

describe("loop failures", () => {
  it("an unhandled failure in an iteration fails the loop and the run", async () => {
    const state = loopState({ loopType: "for", iterations: 5 }, { b: "<a>" });
    state.blocks.a = fn("A", "if (<loop.index> === 1) throw new Error('bad item'); return 1");
    const { result } = await run(state);
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Block "A" failed: .*bad item/);
    const loop = result.traceSpans[1] as TraceSpan;
    expect(loop.children.map((s) => s.status)).toEqual(["success", "error"]);
    expect(loop).toMatchObject({ status: "error", error: result.error });
    expect(outline(result.traceSpans)).not.toContain("echo:After");
  });

  it("an error edge inside the body handles it and the loop goes on", async () => {
    const state = graph(
      {
        a: fn("A", "if (<loop.index> === 1) throw new Error('bad item'); return 'ok'"),
        fix: echo("Fix", { fixed: "<a.error>" }),
      },
      [
        ["start", "a"],
        ["a", "fix", "error"],
      ],
      { loops: { l: { nodes: ["a", "fix"], loopType: "for", iterations: 3 } } },
    );
    const { result } = await run(state);
    expect(result.success).toBe(true);
    const results = (result.output as { results: unknown[] }).results;
    expect(results[0]).toEqual({ result: "ok", stdout: "" });
    expect(results[1]).toEqual({ fixed: expect.stringContaining("bad item") });
    expect(results[2]).toEqual({ result: "ok", stdout: "" });
  });
});
