import type { TraceSpan } from "../types.ts";
import type { Graph, GraphNode } from "./graph.ts";
import { follows, type NodeOutcome, STOPPED } from "./outcome.ts";
import { runBlockNode } from "./run-block.ts";
import { runLoop } from "./run-loop.ts";
import { runParallel } from "./run-parallel.ts";
import type { Scope } from "./scope.ts";

/**
 * Runs a graph in a scope until nothing more can start; resolves to the first failure of one of its
 * nodes, STOPPED when a failure elsewhere kept some of its nodes from starting, or null. A node
 * starts once every incoming edge is settled, if at least one of them was followed; otherwise it is
 * skipped and settles its own edges as not followed. Nodes that do not depend on each other run at
 * the same time. Once the run has failed (anywhere), nothing new starts.
 */
export function runGraph(graph: Graph, scope: Scope, spans: TraceSpan[]): Promise<string | null> {
  const { nodes } = graph;
  const run = scope.run;
  const pending = graph.inDegree.slice();
  const activeIn = new Int32Array(nodes.length);
  let inFlight = 0;
  let failure: string | null = null;
  let cut = false;

  return new Promise<string | null>((done) => {
    const settle = (i: number, outcome: NodeOutcome | null) => {
      const { targets, handles } = nodes[i];
      let followed = 0;
      for (let k = 0; k < targets.length; k++) {
        const t = targets[k];
        if (outcome !== null && follows(handles === null ? null : handles[k], outcome)) {
          activeIn[t]++;
          followed++;
        }
        if (--pending[t] === 0) {
          if (activeIn[t] > 0) launch(t);
          else settle(t, null);
        }
      }
      // A node that ran and led nowhere further ends its path; the last such one gives an iteration's result.
      if (outcome !== null && followed === 0 && i > scope.lastEnd) scope.lastEnd = i;
    };
    const finish = (i: number, outcome: NodeOutcome) => {
      inFlight--;
      if (outcome.status === "failed") failure ??= outcome.message;
      else settle(i, outcome);
      if (inFlight === 0) done(failure ?? (cut ? STOPPED : null));
    };
    const launch = (i: number) => {
      if (run.failure !== null) {
        cut = true;
        return;
      }
      const node = nodes[i];
      if (node.kind === "block" && !node.enabled) return settle(i, null);
      inFlight++;
      runNode(node, scope, spans).then(
        (outcome) => finish(i, outcome),
        (err: unknown) => {
          const message = `${node.kind === "block" ? `Block "${node.block.name}"` : `"${node.id}"`} failed unexpectedly: ${String(err)}`;
          run.failure ??= message;
          finish(i, { status: "failed", message });
        },
      );
    };
    for (const root of graph.roots) launch(root);
    if (inFlight === 0) done(failure ?? (cut ? STOPPED : null));
  });
}

function runNode(node: GraphNode, scope: Scope, spans: TraceSpan[]): Promise<NodeOutcome> {
  if (node.kind === "block") return runBlockNode(node, scope, spans);
  if (node.kind === "loop") return runLoop(node, scope, spans);
  return runParallel(node, scope, spans);
}

/**
 * What an iteration or branch gives as its result: the output of its end node, one that ran and
 * whose edges were all not followed (the last such in the body's order), or null.
 */
export function iterationResult(scope: Scope): unknown {
  return scope.lastEnd < 0 ? null : (scope.values[scope.lastEnd] ?? null);
}
