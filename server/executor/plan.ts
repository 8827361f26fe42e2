import { normalizeBlockName } from "./block-names.ts";
import type { BlockHandler } from "./blocks/block-handler.ts";
import { type BlockRegistry, builtInBlocks } from "./engine/block-registry.ts";
import type { Graph, GraphNode } from "./engine/graph.ts";
import { type NodePosition, type ResolverContext, resolverFor } from "./engine/resolver.ts";
import { TOP_LEVEL, type Topology } from "./engine/topology.ts";
import { compileCode, compileTemplate, type Template } from "./template.ts";
import type { LoopType, ValidationIssue, WorkflowState } from "./types.ts";
import { checkWorkflowState } from "./validate-workflow-state.ts";

/** What runWorkflow needs of a state, computed once per state object. */
export type Plan = { issues: ValidationIssue[]; root: Graph | null };

const plans = new WeakMap<BlockRegistry, WeakMap<object, Plan>>();

/**
 * The plan of a state, cached on the state object: a deployed state is a snapshot that is never
 * mutated, so validation, graph order and reference parsing happen once, not per execution.
 */
export function planFor(state: WorkflowState, registry: BlockRegistry = builtInBlocks): Plan {
  if (state === null || typeof state !== "object") return compilePlan(state, registry);
  let cache = plans.get(registry);
  if (!cache) plans.set(registry, (cache = new WeakMap()));
  let plan = cache.get(state);
  if (!plan) {
    plan = compilePlan(state, registry);
    cache.set(state, plan);
  }
  return plan;
}

function compilePlan(state: WorkflowState, registry: BlockRegistry): Plan {
  const checked = checkWorkflowState(state, registry);
  if (checked.issues.length > 0 || checked.topology === null || checked.startId === undefined) {
    return { issues: checked.issues, root: null };
  }
  const topology = checked.topology;
  const startId = checked.startId;

  // Order first (every planned node gets its position), so references may point anywhere.
  const positions = new Map<string, NodePosition>();
  const orders = new Map<string, string[]>();
  const order = (graphId: string) => {
    const ids = graphId === TOP_LEVEL ? reachableFrom(startId, topology) : [...(topology.graphs.get(graphId)?.nodes ?? [])];
    orders.set(graphId, ids);
    ids.forEach((id, index) => positions.set(id, { graph: graphId, index }));
    for (const id of ids) if (topology.containers.has(id)) order(id);
  };
  order(TOP_LEVEL);

  const targets = new Map<string, string>();
  for (const [id, block] of Object.entries(state.blocks)) targets.set(normalizeBlockName(block.name), id);
  targets.set("start", startId);
  for (const id of topology.containers.keys()) targets.set(normalizeBlockName(id), id);
  const ctx: ResolverContext = { topology, positions, targets };

  const build = (graphId: string): Graph => {
    const ids = orders.get(graphId) as string[];
    const resolver = resolverFor(graphId, ctx);
    const out = ids.map((): Array<[number, string | null]> => []);
    for (const e of topology.graphs.get(graphId)?.edges ?? []) {
      const from = positions.get(e.source);
      const to = positions.get(e.target);
      if (from?.graph === graphId && to?.graph === graphId) out[from.index].push([to.index, e.handle]);
    }
    const inDegree = new Int32Array(ids.length);
    const nodes = ids.map((id, index): GraphNode => {
      const edges = out[index];
      for (const [t] of edges) inDegree[t]++;
      const base = {
        index,
        id,
        targets: Int32Array.from(edges, ([t]) => t),
        handles: edges.some(([, h]) => h !== null) ? edges.map(([, h]) => h) : null,
      };
      const section = topology.containers.get(id);
      if (section === undefined) {
        const block = state.blocks[id];
        const handler = registry.handler(block.type) as BlockHandler;
        return {
          ...base,
          kind: "block",
          block,
          handler,
          enabled: block.enabled !== false,
          params: compileTemplate(block.params ?? {}, resolver, handler.codePaths),
          retry: block.retry ? { tries: block.retry.tries, waitMs: block.retry.waitMs ?? 0 } : null,
          routesErrors: edges.some(([, h]) => h === "error"),
        };
      }
      const spec = section.spec;
      const optional = (value: unknown): Template | null => (value === undefined ? null : compileTemplate(value, resolver));
      const body = build(id);
      if (section.kind === "loop") {
        const condition = typeof spec.condition === "string" ? compileCode(spec.condition, resolverFor(id, ctx)) : null;
        const loopType = spec.loopType as LoopType;
        const conditionText = typeof spec.condition === "string" ? spec.condition : null;
        return { ...base, kind: "loop", body, loopType, iterations: optional(spec.iterations), items: optional(spec.forEachItems), condition, conditionText };
      }
      const parallelType = spec.parallelType as "count" | "collection";
      return { ...base, kind: "parallel", body, parallelType, count: optional(spec.count), items: optional(spec.distribution) };
    });
    const roots = graphId === TOP_LEVEL ? [0] : nodes.filter((n) => inDegree[n.index] === 0).map((n) => n.index);
    return {
      nodes,
      roots: Int32Array.from(roots),
      inDegree,
      hasSections: nodes.some((n) => n.kind !== "block"),
    };
  };
  return { issues: [], root: build(TOP_LEVEL) };
}

/** Top-level nodes reachable from the start block, breadth first; the others never run. */
function reachableFrom(startId: string, topology: Topology): string[] {
  const next = new Map<string, string[]>();
  for (const e of topology.graphs.get(TOP_LEVEL)?.edges ?? []) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const order = [startId];
  const seen = new Set(order);
  for (let i = 0; i < order.length; i++) {
    for (const target of next.get(order[i]) ?? []) {
      if (seen.has(target)) continue;
      seen.add(target);
      order.push(target);
    }
  }
  return order;
}
