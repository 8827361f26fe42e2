import { describe, expect, it } from "vitest";
import { runWorkflow } from "../../../server/executor/index.ts";
import { echo, echoBlock, fn, gates, graph, outline, registryWith, run } from "./engine-helpers.ts";
import { testDeps } from "./helpers.ts";

const PARALLEL = (spec: Record<string, unknown>, body: Record<string, ReturnType<typeof echo>>, edges: Array<[string, string, string?]> = []) =>
  graph(
    { ...body, after: echo("After", { results: "<p.results>", last: "<work>" }) },
    [["start", Object.keys(body)[0]], ...edges, [Object.keys(body).at(-1) as string, "after"]],
    { parallels: { p: { nodes: Object.keys(body), ...spec } } },
  );

describe("parallel", () => {
  it("count: runs the body once per branch, results in branch order", async () => {
    const state = PARALLEL({ parallelType: "count", count: 3 }, { work: echo("Work", { i: "<parallel.index>", item: "<parallel.currentItem>" }) });
    const { result } = await run(state);
    expect(result.output).toEqual({ results: [{ i: 0 }, { i: 1 }, { i: 2 }], last: { i: 2 } });
  });

  it("collection: one branch per item, with the items and the current item", async () => {
    const state = PARALLEL(
      { parallelType: "collection", distribution: "<start.users>" },
      { work: echo("Work", { user: "<parallel.currentItem.name>", of: "<parallel.items.length>" }) },
    );
    const { result } = await run(state, { input: { users: [{ name: "ann" }, { name: "bob" }] } });
    expect(result.output).toEqual({ results: [{ user: "ann", of: 2 }, { user: "bob", of: 2 }], last: { user: "bob", of: 2 } });
    // An object's entries are [key, value] pairs.
    const fromObject = await run(state, { input: { users: { a: { name: "x" }, b: {} } } });
    expect((fromObject.result.output as { results: unknown[] }).results).toEqual([{ of: 2 }, { of: 2 }]);
  });

  it("keeps results in branch order when branches finish out of order", async () => {
    const g = gates();
    const state = PARALLEL({ parallelType: "collection", distribution: ["a", "b", "c"] }, { work: { type: "gate", name: "Work", params: { key: "<parallel.currentItem>" } } });
    const t = testDeps();
    const running = runWorkflow({ state, input: {}, deps: t.deps, executionId: "e", blocks: registryWith({ echo: echoBlock, gate: g.block }) });
    await g.until(3);
    g.open("c", "C");
    g.open("a", "A");
    g.open("b", "B");
    const result = await running;
    expect(result.output).toEqual({ results: ["A", "B", "C"], last: "C" });
    const branches = result.traceSpans[1].children;
    expect(branches.map((s) => [s.type, s.name, s.parallelId, s.iterationIndex])).toEqual([
      ["branch", "Branch 0", "p", 0],
      ["branch", "Branch 1", "p", 1],
      ["branch", "Branch 2", "p", 2],
    ]);
    expect(branches[2].children[0]).toMatchObject({ blockId: "work", parallelId: "p", iterationIndex: 2, output: "C" });
  });

  it("runs at most 20 branches at a time, starting the next as one finishes", async () => {
    const g = gates();
    const state = PARALLEL({ parallelType: "count", count: 25 }, { work: { type: "gate", name: "Work", params: { key: "<parallel.index>" } } });
    const t = testDeps();
    const running = runWorkflow({ state, input: {}, deps: t.deps, executionId: "e", blocks: registryWith({ echo: echoBlock, gate: g.block }) });
    await g.until(20);
    await new Promise((r) => setImmediate(r));
    expect(g.waiting).toHaveLength(20);
    expect(g.waiting).not.toContain(20);
    g.open(5);
    await g.until(20);
    expect(g.waiting).toContain(20);
    for (let left = 24; left > 0; left--) {
      await g.until(Math.min(20, left));
      g.open(g.waiting[0]);
    }
    const result = await running;
    expect(g.maxRunning).toBe(20);
    expect((result.output as { results: unknown[] }).results).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("one failing branch fails the parallel and the run", async () => {
    const state = PARALLEL({ parallelType: "count", count: 3 }, { work: fn("Work", "if (parallel.index === 1) throw new Error('branch 1 broke'); return parallel.index") });
    const { result } = await run(state);
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Block "Work" failed: .*branch 1 broke/);
    const par = result.traceSpans[1];
    expect(par).toMatchObject({ type: "parallel", status: "error" });
    expect(par.children.map((s) => s.status)).toEqual(["success", "error", "success"]);
    expect(result.traceSpans.map((s) => s.blockId)).not.toContain("after");
  });

  it("a failure stops what has not started yet in the other branches", async () => {
    const g = gates();
    const failOnZero = { validate: () => [], run: (p: Record<string, unknown>) => (p.i === 0 ? { output: null, error: "zero broke" } : { output: p.i, error: null }) };
    const state = PARALLEL({ parallelType: "count", count: 2 }, { wait: { type: "gate", name: "Wait", params: { key: "<parallel.index>" } }, work: { type: "check", name: "Work", params: { i: "<parallel.index>" } } }, [["wait", "work"]]);
    const t = testDeps();
    const running = runWorkflow({ state, input: {}, deps: t.deps, executionId: "e", blocks: registryWith({ echo: echoBlock, gate: g.block, check: failOnZero }) });
    await g.until(2);
    g.open(0);
    // Branch 0 fails within this turn of the event loop (its blocks do no I/O).
    await new Promise((r) => setImmediate(r));
    g.open(1);
    const result = await running;
    expect(result.error).toBe('Block "Work" failed: zero broke');
    const [b0, b1] = result.traceSpans[1].children;
    expect(b0).toMatchObject({ status: "error", error: 'Block "Work" failed: zero broke' });
    expect(b1).toMatchObject({ status: "error", error: "Stopped: the run failed" });
    expect(b1.children.map((s) => s.blockId)).toEqual(["wait"]);
    expect(result.traceSpans[1].error).toBe('Block "Work" failed: zero broke');
  });

  it("an error edge inside the branch handles its failure", async () => {
    const state = PARALLEL(
      { parallelType: "count", count: 2 },
      { work: fn("Work", "if (parallel.index === 1) throw new Error('broke'); return 'ok'"), rescue: echo("Rescue", "rescued") },
      [["work", "rescue", "error"]],
    );
    const { result } = await run(state);
    expect(result.success).toBe(true);
    expect((result.output as { results: unknown[] }).results).toEqual([{ result: "ok", stdout: "" }, "rescued"]);
  });

  it("gives empty results for an empty collection and goes on", async () => {
    const state = PARALLEL({ parallelType: "collection", distribution: "<start.items>" }, { work: echo("Work", 1) });
    const { result } = await run(state, { input: { items: [] } });
    expect(result.output).toEqual({ results: [] });
    expect(outline(result.traceSpans)).toEqual(["start:Start", "parallel:p", "echo:After"]);
  });
});
