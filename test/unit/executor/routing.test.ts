import { describe, expect, it } from "vitest";
import type { BlockHandler } from "../../../server/executor/blocks/block-handler.ts";
import { echo, graph, registryWith, run, echoBlock } from "./engine-helpers.ts";

/** `pick`: succeeds choosing the branch named by its `handle` param. */
const pickBlock: BlockHandler = { validate: () => [], run: (p) => ({ output: { picked: p.handle }, error: null, selectedHandle: p.handle as string }) };
/** `flaky`: fails its first `failures` runs (counted per test in `calls`), then outputs `{ok: true}`. */
function flaky(failures: number) {
  const calls: string[] = [];
  const block: BlockHandler = {
    validate: () => [],
    run: (_p, ctx) => {
      calls.push(ctx.blockId);
      return calls.length <= failures ? { output: { partial: calls.length }, error: `attempt ${calls.length} failed` } : { output: { ok: true }, error: null };
    },
  };
  return { block, calls };
}

describe("branch handles", () => {
  const cond = (expression: string) => ({ type: "condition", name: "Cond", params: { conditions: [{ id: "a", expression }] } });

  it("follows only the chosen branch; plain edges of the block always", async () => {
    const state = graph({ c: cond("true"), a: echo("A", 1), b: echo("B", 2), always: echo("Always", 3) }, [
      ["start", "c"],
      ["c", "a", "condition-a"],
      ["c", "b", "condition-else"],
      ["c", "always", "source"],
    ]);
    const { result } = await run(state);
    expect(result.traceSpans.map((s) => s.blockId).sort()).toEqual(["a", "always", "c", "start"]);
  });

  it("skips blocks downstream of skipped branches only, and runs a join reached by the taken branch", async () => {
    // c -> (a | b); a -> a2; b -> b2; a2 + b2 -> join; b2 is downstream of only the skipped branch.
    const state = graph(
      { c: cond("<start.left>"), a: echo("A", "a"), a2: echo("A2", "<a>"), b: echo("B", "b"), b2: echo("B2", "<b>"), join: echo("Join", { a: "<a2>", b: "<b2>" }) },
      [
        ["start", "c"],
        ["c", "a", "condition-a"],
        ["c", "b", "condition-else"],
        ["a", "a2"],
        ["b", "b2"],
        ["a2", "join"],
        ["b2", "join"],
      ],
    );
    const left = await run(state, { input: { left: true } });
    expect(left.result.traceSpans.map((s) => s.blockId)).toEqual(["start", "c", "a", "a2", "join"]);
    expect(left.result.output).toEqual({ a: "a" });
    const right = await run(state, { input: { left: false } });
    expect(right.result.traceSpans.map((s) => s.blockId)).toEqual(["start", "c", "b", "b2", "join"]);
    expect(right.result.output).toEqual({ b: "b" });
  });

  it("follows a branch a block chose through selectedHandle (router-style)", async () => {
    // route-<id> handles must name one of a router's params.routes; the test block stands in for the router.
    const router = { type: "router", name: "P", params: { handle: "<start.h>", routes: [{ id: "y" }, { id: "n" }] } };
    const state = graph({ p: router, y: echo("Y", "y"), n: echo("N", "n") }, [
      ["start", "p"],
      ["p", "y", "route-y"],
      ["p", "n", "route-n"],
    ]);
    const { result } = await run(state, { input: { h: "route-n" }, blocks: registryWith({ echo: echoBlock, router: pickBlock }) });
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "p", "n"]);
  });
});

describe("error edges", () => {
  it("route a failure to the error branch: the run succeeds and <x.error> reads the message", async () => {
    const { block, calls } = flaky(5);
    const state = graph(
      { f: { type: "flaky", name: "Fetch" }, ok: echo("Ok", "fine"), handler: echo("Handler", { caught: "<fetch.error>", partial: "<fetch.partial>" }) },
      [
        ["start", "f"],
        ["f", "ok"],
        ["f", "handler", "error"],
      ],
    );
    const { result } = await run(state, { blocks: registryWith({ echo: echoBlock, flaky: block }) });
    expect(calls).toEqual(["f"]);
    expect(result).toMatchObject({ success: true, error: null, status: 200, output: { caught: "attempt 1 failed", partial: 1 } });
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "f", "handler"]);
    expect(result.traceSpans[1]).toMatchObject({ status: "error", error: "attempt 1 failed", errorHandled: true });
  });

  it("skip the error branch on success", async () => {
    const state = graph({ a: echo("A", 1), ok: echo("Ok", "fine"), handler: echo("Handler", "caught") }, [
      ["start", "a"],
      ["a", "ok"],
      ["a", "handler", "error"],
    ]);
    const { result } = await run(state);
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "a", "ok"]);
    expect(result.traceSpans[1].errorHandled).toBeUndefined();
  });

  it("without an error edge, a failure still fails the run", async () => {
    const { block } = flaky(5);
    const state = graph({ f: { type: "flaky", name: "Fetch" }, ok: echo("Ok", "fine") }, [
      ["start", "f"],
      ["f", "ok"],
    ]);
    const { result } = await run(state, { blocks: registryWith({ echo: echoBlock, flaky: block }) });
    expect(result).toMatchObject({ success: false, status: 500, error: 'Block "Fetch" failed: attempt 1 failed' });
    expect(result.traceSpans.map((s) => s.blockId)).toEqual(["start", "f"]);
  });
});

describe("block retry", () => {
  it("tries again after waitMs until it succeeds", async () => {
    const { block, calls } = flaky(2);
    const state = graph({ f: { type: "flaky", name: "Fetch", retry: { tries: 3, waitMs: 1500 } } }, [["start", "f"]]);
    const { result, sleeps } = await run(state, { blocks: registryWith({ flaky: block }) });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([1500, 1500]);
    expect(result).toMatchObject({ success: true, output: { ok: true } });
    expect(result.traceSpans[1]).toMatchObject({ status: "success", attempts: 3, duration: 3000 });
  });

  it("gives up after `tries` attempts with the last error", async () => {
    const { block, calls } = flaky(10);
    const state = graph({ f: { type: "flaky", name: "Fetch", retry: { tries: 4 } } }, [["start", "f"]]);
    const { result, sleeps } = await run(state, { blocks: registryWith({ flaky: block }) });
    expect(calls).toHaveLength(4);
    expect(sleeps).toEqual([]);
    expect(result).toMatchObject({ success: false, error: 'Block "Fetch" failed: attempt 4 failed' });
    expect(result.traceSpans[1]).toMatchObject({ status: "error", attempts: 4 });
  });
});

describe("model usage", () => {
  const usageBlock: BlockHandler = {
    validate: () => [],
    run: (p) => ({ output: p.model, error: null, modelUsage: [{ model: p.model as string, prompt: 10, completion: 5, ...(p.byok ? { byok: true } : {}) }] }),
  };

  it("sums the usage of every block run, loops and parallels included", async () => {
    const state = graph(
      {
        a: { type: "usage", name: "A", params: { model: "gpt-4o" } },
        b: { type: "usage", name: "B", params: { model: "claude-sonnet-4-5", byok: true } },
        inLoop: { type: "usage", name: "In Loop", params: { model: "gpt-4o" } },
        inPar: { type: "usage", name: "In Par", params: { model: "gpt-4o" } },
      },
      [
        ["start", "a"],
        ["a", "b"],
        ["b", "inLoop"],
        ["inLoop", "inPar"],
      ],
      { loops: { l: { nodes: ["inLoop"], loopType: "for", iterations: 3 } }, parallels: { p: { nodes: ["inPar"], parallelType: "count", count: 2 } } },
    );
    const { result } = await run(state, { blocks: registryWith({ usage: usageBlock }) });
    expect(result.success).toBe(true);
    expect(result.modelUsage).toEqual([
      { model: "gpt-4o", prompt: 60, completion: 30 },
      { model: "claude-sonnet-4-5", prompt: 10, completion: 5, byok: true },
    ]);
  });
});
