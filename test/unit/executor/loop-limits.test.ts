import { describe, expect, it, vi } from "vitest";
import { validateWorkflowState } from "../../../server/executor/index.ts";
import { echo, graph, run } from "./engine-helpers.ts";

// A small cap keeps the test fast; the engine reads the same constant as with the real 1,000.
vi.mock("../../../server/executor/engine/limits.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../server/executor/engine/limits.ts")>()),
  MAX_LOOP_ITERATIONS: 4,
  MAX_PARALLEL_BRANCHES: 3,
}));

describe("loop and parallel caps", () => {
  it("fails a while loop that reaches the cap with its condition still true", async () => {
    const state = graph({ a: echo("A", "<loop.index>"), after: echo("After", 1) }, [
      ["start", "a"],
      ["a", "after"],
    ], { loops: { spin: { nodes: ["a"], loopType: "while", condition: "true" } } });
    const { result } = await run(state);
    expect(result).toMatchObject({ success: false, status: 500, error: 'Loop "spin" failed: the loop reached the limit of 4 iterations with its condition still true' });
    expect(result.traceSpans[1].children).toHaveLength(4);
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "spin"]);
  });

  it("lets a while loop whose condition turns false at the cap end normally", async () => {
    const state = graph({ a: echo("A", "<loop.index>") }, [["start", "a"]], { loops: { l: { nodes: ["a"], loopType: "while", condition: "<loop.index> < 4" } } });
    const { result } = await run(state);
    expect(result).toMatchObject({ success: true, output: { results: [0, 1, 2, 3] } });
  });

  it("fails a doWhile loop at the cap too", async () => {
    const state = graph({ a: echo("A", 1) }, [["start", "a"]], { loops: { l: { nodes: ["a"], loopType: "doWhile", condition: "true" } } });
    const { result } = await run(state);
    expect(result.error).toBe('Loop "l" failed: the loop reached the limit of 4 iterations with its condition still true');
  });

  it("refuses referenced items and counts above the caps at run time", async () => {
    const loop = graph({ a: echo("A", 1) }, [["start", "a"]], { loops: { l: { nodes: ["a"], loopType: "forEach", forEachItems: "<start.items>" } } });
    expect((await run(loop, { input: { items: [1, 2, 3, 4, 5] } })).result.error).toBe('Loop "l" failed: forEachItems has 5 items; at most 4 are allowed');
    const par = graph({ a: echo("A", 1) }, [["start", "a"]], { parallels: { p: { nodes: ["a"], parallelType: "count", count: "<start.n>" } } });
    expect((await run(par, { input: { n: 4 } })).result.error).toBe('Parallel "p" failed: count must be an integer from 0 to 3 (got 4)');
  });

  it("does not validate a for loop or a count above the cap", () => {
    const state = graph({ a: echo("A", 1), b: echo("B", 1) }, [["start", "a"], ["a", "b"]], {
      loops: { l: { nodes: ["a"], loopType: "for", iterations: 5 } },
      parallels: { p: { nodes: ["b"], parallelType: "count", count: 4 } },
    });
    expect(validateWorkflowState(state, { handler: () => ({ validate: () => [], run: () => ({ output: null, error: null }) }), types: [] }).map((i) => i.message)).toEqual([
      'Loop "l": iterations must be an integer from 0 to 4 or a <block.path> reference (got 5)',
      'Parallel "p": count must be an integer from 1 to 3 or a <block.path> reference (got 4)',
    ]);
  });
});
