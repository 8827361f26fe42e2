import { describe, expect, it, vi } from "vitest";
import type { Block } from "../../../server/executor/types.ts";
import { echo, graph, run } from "./engine-helpers.ts";

// Small numbers keep the tests fast; the engine reads the same constants as with the real ones.
vi.mock("../../../server/executor/engine/limits.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../server/executor/engine/limits.ts")>()),
  MAX_BLOCK_RUNS: 40,
  BLOCK_RUNS_PER_YIELD: 10,
}));

/** A chain start -> b0 -> b1 -> ... of `count` echo blocks. */
function chain(count: number) {
  const blocks: Record<string, Block> = {};
  const edges: Array<[string, string]> = [];
  for (let i = 0; i < count; i++) {
    blocks[`b${i}`] = echo(`B${i}`, i);
    edges.push([i === 0 ? "start" : `b${i - 1}`, `b${i}`]);
  }
  return graph(blocks, edges);
}

/**
 * The order in which the run and a macrotask queued just before it end. Blocks that resolve at once
 * only chain microtasks: unless the engine yields, the run ends first.
 */
async function orderAgainstEventLoop(state: ReturnType<typeof graph>): Promise<string[]> {
  const order: string[] = [];
  setImmediate(() => order.push("event loop"));
  const { result } = await run(state);
  order.push(result.success ? "run" : `run failed: ${result.error}`);
  await new Promise((resolve) => setImmediate(resolve));
  return order;
}

describe("the event loop during a run", () => {
  it("runs between blocks, at least every BLOCK_RUNS_PER_YIELD block runs", async () => {
    expect(await orderAgainstEventLoop(chain(25))).toEqual(["event loop", "run"]);
    // Fewer blocks than BLOCK_RUNS_PER_YIELD (start included): no yield is needed, and none is made.
    expect(await orderAgainstEventLoop(chain(5))).toEqual(["run", "event loop"]);
  });

  it("runs before each loop iteration", async () => {
    const state = graph({ a: echo("A", "<loop.index>") }, [["start", "a"]], { loops: { l: { nodes: ["a"], loopType: "for", iterations: 2 } } });
    expect(await orderAgainstEventLoop(state)).toEqual(["event loop", "run"]);
  });

  it("runs before each parallel branch starts", async () => {
    const state = graph({ a: echo("A", 1) }, [["start", "a"]], { parallels: { p: { nodes: ["a"], parallelType: "count", count: 2 } } });
    expect(await orderAgainstEventLoop(state)).toEqual(["event loop", "run"]);
  });
});

describe("the block-run budget", () => {
  it("fails a run once it would start more than MAX_BLOCK_RUNS blocks", async () => {
    // start + 50 iterations of two blocks: the 41st block run is refused.
    const state = graph({ a: echo("A", "<loop.index>"), b: echo("B", 1) }, [
      ["start", "a"],
      ["a", "b"],
    ], { loops: { l: { nodes: ["a", "b"], loopType: "for", iterations: 50 } } });
    const { result } = await run(state);
    expect(result).toMatchObject({ success: false, status: 500, error: "The run exceeded 40 block runs" });
    const loop = result.traceSpans[1];
    expect(loop).toMatchObject({ blockId: "l", status: "error", error: "The run exceeded 40 block runs" });
    // 39 block runs in the loop: 19 full iterations and the first block of the 20th.
    expect(loop.children).toHaveLength(20);
    expect(loop.children.flatMap((iteration) => iteration.children)).toHaveLength(39);
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "l"]);
  });

  it("lets a run of exactly MAX_BLOCK_RUNS blocks succeed", async () => {
    const { result } = await run(chain(39));
    expect(result).toMatchObject({ success: true, output: 38 });
  });
});
