import type { TraceSpan } from "../types.ts";
import type { Graph, ParallelNode } from "./graph.ts";
import { toCount, toItems } from "./items.ts";
import { MAX_PARALLEL_BRANCHES, PARALLEL_CONCURRENCY } from "./limits.ts";
import { finishSection } from "./finish-section.ts";
import { type NodeOutcome, STOPPED } from "./outcome.ts";
import { yieldToEventLoop } from "./yield-to-event-loop.ts";
import { iterationResult, runGraph } from "./run-graph.ts";
import { Scope } from "./scope.ts";
import { closeSpan, openSpan, sectionTags } from "./spans.ts";

/**
 * Runs a parallel: its body once per branch, at most PARALLEL_CONCURRENCY branches at a time, each
 * in its own scope. Its output is `{ results }` in branch order, whatever order they finish in.
 */
export async function runParallel(node: ParallelNode, scope: Scope, spans: TraceSpan[]): Promise<NodeOutcome> {
  const run = scope.run;
  const { clock } = run.deps;
  const startMs = clock.now();
  const span = openSpan(node.id, "parallel", node.id, scope.tags, startMs);
  spans.push(span);

  let error: string | null = null;
  let inner: string | null = null;
  let count = 0;
  let items: unknown[] | undefined;
  let results: unknown[] = [];
  try {
    if (node.parallelType === "count") {
      const value = node.count?.constant ? node.count.value : node.count?.resolve(scope);
      const checked = toCount(value, "count", 0, MAX_PARALLEL_BRANCHES);
      if ("error" in checked) error = checked.error;
      else count = checked.count;
      span.input = { parallelType: node.parallelType, count: value };
    } else {
      const value = node.items?.constant ? node.items.value : node.items?.resolve(scope);
      const checked = toItems(value, "distribution", MAX_PARALLEL_BRANCHES);
      if ("error" in checked) error = checked.error;
      else ({ items } = checked);
      count = items?.length ?? 0;
      span.input = items ? { parallelType: node.parallelType, itemCount: items.length } : { parallelType: node.parallelType, distribution: value };
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }

  const branches: Array<Scope | undefined> = new Array(count);
  if (error === null) {
    results = new Array(count).fill(null);
    const body = node.body;
    let next = 0;
    let stopped = false;
    const worker = async () => {
      while (next < count && run.failure === null) {
        // Each branch start lets the event loop run, however cheap its blocks are.
        await yieldToEventLoop();
        if (next >= count || run.failure !== null) break;
        const i = next++;
        const tags = sectionTags(scope.tags, "parallel", node.id, i);
        const frame = { index: i, currentItem: items?.[i], items };
        const branch = Scope.fresh(body.nodes.length, body.hasSections, scope, run, frame, tags);
        branches[i] = branch;
        const branchStart = clock.now();
        const branchSpan = openSpan(`Branch ${i}`, "branch", node.id, tags, branchStart);
        branchSpan.input = node.parallelType === "collection" ? { index: i, item: frame.currentItem } : { index: i };
        span.children.push(branchSpan);
        const failed = await runGraph(body, branch, branchSpan.children);
        closeSpan(branchSpan, branchStart, clock.now());
        if (failed !== null) {
          branchSpan.status = "error";
          branchSpan.error = failed;
          if (failed === STOPPED) stopped = true;
          else inner ??= failed;
        } else {
          results[i] = iterationResult(branch);
          branchSpan.output = results[i];
        }
      }
    };
    const workers: Array<Promise<void>> = [];
    for (let k = 0; k < Math.min(count, PARALLEL_CONCURRENCY); k++) workers.push(worker());
    await Promise.all(workers);
    if (inner !== null) error = inner;
    else if (stopped || next < count) error = STOPPED;
    if (scope.inner !== null && count > 0) scope.inner[node.index] = mergeBranches(body, branches, scope);
  }

  return finishSection({ kind: "Parallel", id: node.id, index: node.index }, scope, span, startMs, results, error, inner);
}

/** What references from outside read: per node, its output in the highest-numbered branch it ran in. */
function mergeBranches(body: Graph, branches: ReadonlyArray<Scope | undefined>, parent: Scope): Scope {
  const merged = Scope.fresh(body.nodes.length, body.hasSections, parent, parent.run, null, null);
  for (let j = 0; j < body.nodes.length; j++) {
    for (let i = branches.length - 1; i >= 0; i--) {
      const value = branches[i]?.values[j];
      if (value !== undefined) {
        merged.values[j] = value;
        if (merged.inner !== null) merged.inner[j] = branches[i]?.inner?.[j];
        break;
      }
    }
  }
  return merged;
}
