import { describe, expect, it } from "vitest";
import { echo, graph, outline, run } from "./engine-helpers.ts";

describe("nested sections", () => {
  it("runs a loop inside a parallel, with spans nested and tagged", async () => {
    const state = graph(
      { a: echo("A", { p: "<parallel.index>", l: "<loop.index>" }), after: echo("After", { all: "<p.results>", lastA: "<a>" }) },
      [
        ["start", "a"],
        ["a", "after"],
      ],
      { loops: { l: { nodes: ["a"], loopType: "for", iterations: 2 } }, parallels: { p: { nodes: ["l"], parallelType: "count", count: 2 } } },
    );
    const { result } = await run(state);
    expect(result.output).toEqual({
      all: [
        { results: [{ p: 0, l: 0 }, { p: 0, l: 1 }] },
        { results: [{ p: 1, l: 0 }, { p: 1, l: 1 }] },
      ],
      lastA: { p: 1, l: 1 },
    });
    expect(outline(result.traceSpans)).toEqual([
      "start:Start",
      "parallel:p",
      "  branch:Branch 0",
      "    loop:l",
      "      iteration:Iteration 0",
      "        echo:A",
      "      iteration:Iteration 1",
      "        echo:A",
      "  branch:Branch 1",
      "    loop:l",
      "      iteration:Iteration 0",
      "        echo:A",
      "      iteration:Iteration 1",
      "        echo:A",
      "echo:After",
    ]);
    const branch1 = result.traceSpans[1].children[1];
    const loop = branch1.children[0];
    expect([loop.type, loop.parallelId, loop.loopId, loop.iterationIndex]).toEqual(["loop", "p", undefined, 1]);
    const iteration = loop.children[1];
    expect([iteration.loopId, iteration.parallelId, iteration.iterationIndex]).toEqual(["l", "p", 1]);
    expect(iteration.children[0]).toMatchObject({ blockId: "a", loopId: "l", parallelId: "p", iterationIndex: 1 });
  });

  it("runs a parallel inside a loop, the parallel's items taken from the loop's item", async () => {
    const state = graph(
      { a: echo("A", { x: "<parallel.currentItem>", outer: "<loop.index>" }) },
      [["start", "a"]],
      {
        loops: { l: { nodes: ["p"], loopType: "forEach", forEachItems: [[1, 2], [3]] } },
        parallels: { p: { nodes: ["a"], parallelType: "collection", distribution: "<loop.item>" } },
      },
    );
    const { result } = await run(state);
    expect(result.output).toEqual({
      results: [{ results: [{ x: 1, outer: 0 }, { x: 2, outer: 0 }] }, { results: [{ x: 3, outer: 1 }] }],
    });
    const iteration1 = result.traceSpans[1].children[1];
    expect(outline([iteration1])).toEqual(["iteration:Iteration 1", "  parallel:p", "    branch:Branch 0", "      echo:A"]);
    expect(iteration1.children[0]).toMatchObject({ loopId: "l", iterationIndex: 1 });
    expect(iteration1.children[0].children[0].children[0]).toMatchObject({ loopId: "l", parallelId: "p", iterationIndex: 0 });
  });

  it("runs a loop inside a loop; inner blocks read the outer iteration's blocks", async () => {
    const state = graph(
      {
        o: echo("Outer", "<loop.item>"),
        i: echo("Inner", { outer: "<outer>", item: "<loop.item>" }),
        after: echo("After", { all: "<ol.results>", lastInner: "<inner>", lastOuter: "<outer>" }),
      },
      [
        ["start", "o"],
        ["o", "i"],
        ["i", "after"],
      ],
      {
        loops: {
          ol: { nodes: ["o", "il"], loopType: "forEach", forEachItems: [["x"], ["y1", "y2"]] },
          il: { nodes: ["i"], loopType: "forEach", forEachItems: "<outer>" },
        },
      },
    );
    const { result } = await run(state);
    expect(result.success).toBe(true);
    expect(result.output).toEqual({
      all: [
        { results: [{ outer: ["x"], item: "x" }] },
        {
          results: [
            { outer: ["y1", "y2"], item: "y1" },
            { outer: ["y1", "y2"], item: "y2" },
          ],
        },
      ],
      lastInner: { outer: ["y1", "y2"], item: "y2" },
      lastOuter: ["y1", "y2"],
    });
    const innerLoop = result.traceSpans[1].children[1].children[1];
    expect(innerLoop).toMatchObject({ type: "loop", blockId: "il", loopId: "ol", iterationIndex: 1 });
    expect(innerLoop.children[1].children[0]).toMatchObject({ blockId: "i", loopId: "il", iterationIndex: 1 });
  });

  it("orders spans by start inside every level", async () => {
    const state = graph({ a: echo("A", 1), b: echo("B", 2) }, [["start", "a"], ["start", "b"]], {
      parallels: { p: { nodes: ["a", "b"], parallelType: "count", count: 2 } },
    });
    const { result } = await run(state);
    const starts = (spans: typeof result.traceSpans): boolean =>
      spans.every((s, k) => k === 0 || spans[k - 1].startTime <= s.startTime) && spans.every((s) => starts(s.children));
    expect(starts(result.traceSpans)).toBe(true);
    expect(result.traceSpans[1].children[0].children.map((s) => s.blockId)).toEqual(["a", "b"]);
  });
});
