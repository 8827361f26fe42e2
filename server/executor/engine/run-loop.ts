import { evaluateExpression } from "../sandbox/index.ts";
import type { TraceSpan } from "../types.ts";
import type { LoopNode } from "./graph.ts";
import { toCount, toItems } from "./items.ts";
import { MAX_LOOP_ITERATIONS } from "./limits.ts";
import { finishSection } from "./finish-section.ts";
import { type NodeOutcome, STOPPED } from "./outcome.ts";
import { yieldToEventLoop } from "./yield-to-event-loop.ts";
import { iterationResult, runGraph } from "./run-graph.ts";
import { Scope } from "./scope.ts";
import { closeSpan, openSpan, sectionTags } from "./spans.ts";

/**
 * Runs a loop: its body once per iteration, one iteration after the other, each in a fresh scope.
 * Its output is `{ results }`, one result per iteration (iterationResult); references from outside
 * to the body's blocks read the last iteration.
 */
export async function runLoop(node: LoopNode, scope: Scope, spans: TraceSpan[]): Promise<NodeOutcome> {
  const run = scope.run;
  const { clock } = run.deps;
  const startMs = clock.now();
  const span = openSpan(node.id, "loop", node.id, scope.tags, startMs);
  spans.push(span);

  const results: unknown[] = [];
  let last: Scope | undefined;
  let error: string | null = null;
  let inner: string | null = null; // failure message of a body block, passed on as it is
  let count = Number.POSITIVE_INFINITY;
  let items: unknown[] | undefined;
  try {
    if (node.loopType === "for") {
      const value = node.iterations?.constant ? node.iterations.value : node.iterations?.resolve(scope);
      const checked = toCount(value, "iterations", 0, MAX_LOOP_ITERATIONS);
      if ("error" in checked) error = checked.error;
      else count = checked.count;
      span.input = { loopType: node.loopType, iterations: value };
    } else if (node.loopType === "forEach") {
      const value = node.items?.constant ? node.items.value : node.items?.resolve(scope);
      const checked = toItems(value, "forEachItems", MAX_LOOP_ITERATIONS);
      if ("error" in checked) error = checked.error;
      else ({ items } = checked);
      if (items) count = items.length;
      // Each iteration's span shows its item; the loop's span only how many, so traces do not double.
      span.input = items ? { loopType: node.loopType, itemCount: items.length } : { loopType: node.loopType, forEachItems: value };
    } else {
      span.input = { loopType: node.loopType, condition: node.conditionText };
    }

    const body = node.body;
    const checksBefore = node.loopType === "while";
    const checksAfter = node.loopType === "doWhile";
    for (let i = 0; error === null && i < count; i++) {
      // Each iteration lets the event loop run, however cheap its blocks are.
      await yieldToEventLoop();
      if (run.failure !== null) {
        error = STOPPED;
        break;
      }
      if (checksBefore) {
        const go = await checkCondition(node, scope, last, i);
        if (typeof go === "string") error = go;
        else if (go && i >= MAX_LOOP_ITERATIONS) error = capReached();
        if (!go || error !== null) break;
      }
      const tags = sectionTags(scope.tags, "loop", node.id, i);
      const frame = { index: i, item: items?.[i], items };
      const iteration = Scope.fresh(body.nodes.length, body.hasSections, scope, run, frame, tags);
      const iterationStart = clock.now();
      const iterationSpan = openSpan(`Iteration ${i}`, "iteration", node.id, tags, iterationStart);
      iterationSpan.input = node.loopType === "forEach" ? { index: i, item: frame.item } : { index: i };
      span.children.push(iterationSpan);
      const failed = await runGraph(body, iteration, iterationSpan.children);
      closeSpan(iterationSpan, iterationStart, clock.now());
      last = iteration;
      if (failed !== null) {
        iterationSpan.status = "error";
        iterationSpan.error = failed;
        error = failed;
        if (failed !== STOPPED) inner = failed;
        break;
      }
      const result = iterationResult(iteration);
      iterationSpan.output = result;
      results.push(result);
      if (checksAfter) {
        const go = await checkCondition(node, scope, last, i + 1);
        if (typeof go === "string") error = go;
        else if (go && i + 1 >= MAX_LOOP_ITERATIONS) error = capReached();
        if (!go) break;
      }
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }

  if (last !== undefined && scope.inner !== null) scope.inner[node.index] = last;
  return finishSection({ kind: "Loop", id: node.id, index: node.index }, scope, span, startMs, results, error, inner);
}

function capReached(): string {
  return `the loop reached the limit of ${MAX_LOOP_ITERATIONS} iterations with its condition still true`;
}

/**
 * Evaluates a while / doWhile condition in the sandbox. It sees `<loop.index>` = iterations done so
 * far, and references to the body's blocks read the iteration that just ended (nothing before the first).
 */
async function checkCondition(node: LoopNode, scope: Scope, last: Scope | undefined, done: number): Promise<boolean | string> {
  if (node.condition === null) return "the loop has no condition";
  const frame = { index: done, item: undefined, items: undefined };
  const view = new Scope(last?.values ?? [], last?.inner ?? null, scope, scope.run, frame, null);
  const code = node.condition.resolve(view);
  const outcome = await evaluateExpression({ expression: code.source, globals: code.globals });
  if (!outcome.ok) return `the condition failed: ${outcome.error}`;
  return Boolean(outcome.value);
}
