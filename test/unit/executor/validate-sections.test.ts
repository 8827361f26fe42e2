import { describe, expect, it } from "vitest";
import { validateWorkflowState } from "../../../server/executor/index.ts";
import type { Block, WorkflowState } from "../../../server/executor/types.ts";
import { graph } from "./engine-helpers.ts";

const messages = (state: unknown) => validateWorkflowState(state).map((i) => i.message);
const vars = (name: string, variables: Record<string, unknown> = { x: 1 }): Block => ({ type: "variables", name, params: { variables } });
/** start -> a -> b -> c, all variables blocks. */
const abc = (sections: { loops?: Record<string, unknown>; parallels?: Record<string, unknown> } = {}): WorkflowState =>
  graph({ a: vars("A"), b: vars("B"), c: vars("C") }, [["start", "a"], ["a", "b"], ["b", "c"]], sections);

describe("validateWorkflowState: loops and parallels", () => {
  it("accepts nested loops and parallels with references to their values", () => {
    const state = abc({
      loops: { outer: { nodes: ["a", "inner"], loopType: "forEach", forEachItems: "<start.items>" }, inner: { nodes: ["p"], loopType: "while", condition: "<loop.index> < <a.x>" } },
      parallels: { p: { nodes: ["b"], parallelType: "collection", distribution: "<loop.item>" } },
    });
    state.blocks.b.params = { variables: { y: "<parallel.currentItem>", z: "<loop.index>", n: "<outer.results>" } };
    state.blocks.c.params = { variables: { last: "<inner.results>", x: "<variable.y>" } };
    expect(validateWorkflowState(state)).toEqual([]);
  });

  it("checks each section's shape and settings", () => {
    const state = abc({
      loops: {
        l1: { nodes: [], loopType: "for", iterations: 3 },
        l2: { nodes: ["a"], loopType: "until" },
        l3: { nodes: ["b"], loopType: "for", iterations: 1001 },
        l4: { nodes: ["c"], loopType: "forEach", forEachItems: "not json" },
      },
    });
    expect(messages(state)).toEqual([
      'Loop "l1": nodes must be a non-empty array of block, loop or parallel ids',
      'Loop "l2": loopType must be one of for, forEach, while, doWhile (got "until")',
      'Loop "l3": iterations must be an integer from 0 to 1000 or a <block.path> reference (got 1001)',
      'Loop "l4": forEachItems must be an array, an object, a <block.path> reference or a JSON string of an array or object (got a string that is not one)',
    ]);
    const more = abc({
      loops: { w: { nodes: ["a"], loopType: "doWhile", condition: " " }, f: { nodes: ["b"], loopType: "forEach" } },
      parallels: { p: { nodes: ["c"], parallelType: "many" } },
    });
    expect(messages(more)).toEqual([
      'Loop "w": a doWhile loop needs a condition (a JavaScript expression)',
      'Loop "f": forEachItems must be an array, an object, a <block.path> reference or a JSON string of an array or object (got nothing)',
      'Parallel "p": parallelType must be one of count, collection (got "many")',
    ]);
    const counts = abc({ parallels: { p: { nodes: ["a"], parallelType: "count", count: 0 }, q: { nodes: ["b"], parallelType: "collection", distribution: 7 } } });
    expect(messages(counts)).toEqual([
      'Parallel "p": count must be an integer from 1 to 1000 or a <block.path> reference (got 0)',
      'Parallel "q": distribution must be an array, an object, a <block.path> reference or a JSON string of an array or object (got 7)',
    ]);
  });

  it("checks members: existing, not the start block, in one section only, no section inside itself", () => {
    const state = abc({
      loops: {
        l1: { nodes: ["a", "ghost", "start"], loopType: "for", iterations: 1 },
        l2: { nodes: ["a", "l2"], loopType: "for", iterations: 1 },
      },
      parallels: { p1: { nodes: ["p2"], parallelType: "count", count: 1 }, p2: { nodes: ["p1", "b"], parallelType: "count", count: 1 } },
    });
    expect(messages(state)).toEqual([
      'Loop "l1": node "ghost" is not a block, loop or parallel',
      'Loop "l1": the start block cannot be inside a loop or parallel',
      'Block "A" (a) is in both Loop "l1" and Loop "l2"; a node belongs to one loop or parallel',
      'Loop "l2" cannot contain itself',
      'Parallel "p1" is inside itself (through Parallel "p2")',
      'Parallel "p2" is inside itself (through Parallel "p1")',
    ]);
  });

  it("checks section ids against block ids, block names, reserved names and each other", () => {
    const state = abc({
      loops: { a: { nodes: ["a"], loopType: "for", iterations: 1 }, C: { nodes: ["c"], loopType: "for", iterations: 1 }, Loop: { nodes: ["b"], loopType: "for", iterations: 1 } },
      parallels: { c: { nodes: ["b"], parallelType: "count", count: 1 } },
    });
    expect(messages(state)).toEqual([
      'Loop "a": its id is also a block id; use another id',
      'Loop "a": its id is also the reference name of Block "A" (a); rename one of them',
      'Loop "C": its id is also the reference name of Block "C" (c); rename one of them',
      'Loop "Loop": the id "loop" is reserved',
      'Parallel "c": its id is also a block id; use another id',
      'Parallel "c": its id is also the reference name of Block "C" (c); rename one of them',
      'Parallel "c" has the same reference name "c" as Loop "C"; rename one of them',
    ]);
  });

  it("rejects cycles inside a section and through one, naming where", () => {
    const inside = abc({ loops: { l: { nodes: ["a", "b"], loopType: "for", iterations: 2 } } });
    inside.edges.push({ source: "b", target: "a" });
    expect(messages(inside)).toEqual(['Block "A" (a) is on a cycle inside Loop "l"; edges must not form cycles (repeat blocks with a loop instead)']);
    // c waits for the loop (b -> c), and the loop for c (c -> a): neither could start.
    const through = abc({ loops: { l: { nodes: ["a", "b"], loopType: "for", iterations: 2 } } });
    through.edges.push({ source: "c", target: "a" });
    expect(messages(through)).toEqual(['Loop "l" is on a cycle; edges must not form cycles (repeat blocks with a loop instead)']);
  });

  it("rejects branch edges leaving a section", () => {
    const state = abc({ loops: { l: { nodes: ["a"], loopType: "for", iterations: 2 } } });
    state.edges[1].sourceHandle = "error";
    expect(messages(state)).toEqual([
      'Edge #2 (a -> b): the branch edge "error" of Block "A" (a) cannot leave Loop "l"; only plain edges leave a loop or parallel',
    ]);
  });

  it("checks <loop.x>, <parallel.x> and <variable.x> references", () => {
    const state = abc({ loops: { l: { nodes: ["b"], loopType: "for", iterations: 2 } } });
    state.blocks.a.params = { variables: { x: "<loop.index>", y: "<parallel.index>", z: "<variable.nope>" } };
    state.blocks.b.params = { variables: { w: "<loop.position>", v: "<l.results>", u: "<variable.x>" } };
    expect(validateWorkflowState(state)).toEqual([
      { blockId: "a", message: 'Block "A" (a) uses <loop...> outside a loop' },
      { blockId: "a", message: 'Block "A" (a) uses <parallel...> outside a parallel' },
      { blockId: "a", message: 'Block "A" (a) references <variable.nope>, but no variables block sets "nope"' },
      { blockId: "b", message: 'Block "B" (b) uses <loop.position>, which is not a loop value (use <loop.index>, <loop.item>, <loop.items>)' },
    ]);
    const loopSettings = abc({ loops: { l: { nodes: ["b"], loopType: "forEach", forEachItems: "<loop.items>" } } });
    expect(messages(loopSettings)).toEqual(['Loop "l" uses <loop...> outside a loop']);
  });
});

describe("validateWorkflowState: block rules", () => {
  it("reserves the names variable, loop and parallel", () => {
    const state = graph({ a: vars("Variable"), b: vars("  loop "), c: vars("Parallel") }, [["start", "a"]]);
    expect(messages(state)).toEqual([
      'Block "Variable" (a): the name "variable" is reserved (<variable.x> has its own meaning)',
      'Block "  loop " (b): the name "loop" is reserved (<loop.x> has its own meaning)',
      'Block "Parallel" (c): the name "parallel" is reserved (<parallel.x> has its own meaning)',
    ]);
  });

  it("checks the retry setting", () => {
    const state = graph({ a: { ...vars("A"), retry: { tries: 0, waitMs: -1 } }, b: { ...vars("B"), retry: 3 as never }, c: { ...vars("C"), retry: { tries: 11 } } }, [["start", "a"]]);
    expect(messages(state)).toEqual([
      'Block "A" (a): retry.tries must be an integer from 1 to 10 (got 0)',
      'Block "A" (a): retry.waitMs must be an integer from 0 to 60000 (got -1)',
      'Block "B" (b): retry must be an object {tries, waitMs?}',
      'Block "C" (c): retry.tries must be an integer from 1 to 10 (got 11)',
    ]);
    expect(messages(graph({ a: { ...vars("A"), retry: { tries: 10, waitMs: 60_000 } } }, [["start", "a"]]))).toEqual([]);
  });

  it("checks condition handles against the block's conditions", () => {
    const cond: Block = { type: "condition", name: "Check", params: { conditions: [{ id: "yes", expression: "true" }] } };
    const state = graph({ c: cond, a: vars("A"), b: vars("B"), d: vars("D") }, [
      ["start", "c"],
      ["c", "a", "condition-yes"],
      ["c", "b", "condition-else"],
      ["c", "d", "condition-no"],
      ["a", "d", "condition-yes"],
      ["b", "d", "route-x"],
    ]);
    expect(validateWorkflowState(state)).toEqual([
      { blockId: "c", message: 'Edge #4 (c -> d): Block "Check" (c) has no condition "no" (handles: condition-yes, condition-else)' },
      { blockId: "a", message: 'Edge #5 (a -> d): Block "A" (a) has no branch "condition-yes": condition-<id> handles belong to condition blocks' },
      { blockId: "b", message: 'Edge #6 (b -> d): Block "B" (b) has no branch "route-x": route-<id> handles belong to router blocks' },
    ]);
  });

  it("checks the params of condition, function, variables and wait blocks", () => {
    const state = graph(
      {
        c1: { type: "condition", name: "C1", params: { conditions: [] } },
        c2: {
          type: "condition",
          name: "C2",
          params: { conditions: [{ id: "a b", expression: "1" }, { id: "else", expression: "1" }, { id: "x", expression: "" }, { id: "x", expression: "2" }] },
        },
        f: { type: "function", name: "F", params: {} },
        v: { type: "variables", name: "V", params: { variables: { "bad name": 1 } } },
        v2: { type: "variables", name: "V2", params: { variables: [1] } },
        w: { type: "wait", name: "W", params: { ms: 300_001 } },
        w2: { type: "wait", name: "W2" },
      },
      [["start", "c1"]],
    );
    expect(messages(state)).toEqual([
      'Block "C1" (c1): conditions must be a non-empty array of {id, expression}',
      'Block "C2" (c2): conditions[0].id must be a non-empty string of letters, digits, _ and - (got "a b")',
      'Block "C2" (c2): conditions[1].id "else" is reserved for the branch taken when no condition holds',
      'Block "C2" (c2): conditions[2].expression is required (a JavaScript expression)',
      'Block "C2" (c2): conditions[3].id "x" is used twice',
      'Block "F" (f): code is required (a JavaScript function body)',
      'Block "V" (v): variable name "bad name" may only use letters, digits, _, $ and -',
      'Block "V2" (v2): variables must be an object {name: value}',
      'Block "W" (w): ms must be an integer from 0 to 300000 (got 300001)',
      'Block "W2" (w2): ms is required (an integer from 0 to 300000 or a <block.path> reference)',
    ]);
  });
});
