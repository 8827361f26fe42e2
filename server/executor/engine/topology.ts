import type { Edge } from "../types.ts";
import { handleKind } from "./handles.ts";

export type ContainerKind = "loop" | "parallel";

/** A loop or parallel section of the state, as validated. */
export type ContainerInfo = { id: string; kind: ContainerKind; nodes: readonly string[]; spec: Record<string, unknown> };

/** An edge as seen from the graph it runs in: its ends are nodes (blocks or sections) of that graph. */
export type GraphEdge = {
  source: string;
  target: string;
  /** null for a plain edge, else the sourceHandle (`error`, `condition-...`, `route-...`). */
  handle: string | null;
  /** The edge leaves a section: its source block sits inside `source`, a section. */
  leavesSection: boolean;
  edge: Edge;
};

/** The top-level graph ("") or the body of one section: its direct members and the edges between them. */
export type GraphShape = { nodes: string[]; edges: GraphEdge[] };

/**
 * The state seen as nested graphs: every section is one node of the graph around it and a graph of
 * its own members. An edge belongs to the innermost graph holding both of its ends; an end that sits
 * deeper is replaced by the section holding it there, so an edge into a loop's block enters the loop,
 * and an edge out of it leaves the loop.
 */
export type Topology = {
  containers: ReadonlyMap<string, ContainerInfo>;
  /** The section directly holding a block or section; absent at the top level. */
  parentOf: ReadonlyMap<string, string>;
  graphs: ReadonlyMap<string, GraphShape>;
  /** Sections holding a node, outermost first (empty at the top level). */
  chainOf(id: string): readonly string[];
};

export const TOP_LEVEL = "";

/** Builds the nested graphs; expects block ids, sections and edge ends already checked. */
export function buildTopology(blockIds: readonly string[], containers: ReadonlyMap<string, ContainerInfo>, edges: readonly Edge[]): Topology {
  const parentOf = new Map<string, string>();
  for (const c of containers.values()) for (const member of c.nodes) parentOf.set(member, c.id);
  const chains = new Map<string, readonly string[]>();
  const chainOf = (id: string): readonly string[] => {
    let chain = chains.get(id);
    if (chain) return chain;
    const parent = parentOf.get(id);
    chain = parent === undefined ? [] : [...chainOf(parent), parent];
    chains.set(id, chain);
    return chain;
  };

  const graphs = new Map<string, GraphShape>();
  const top: GraphShape = { nodes: [], edges: [] };
  graphs.set(TOP_LEVEL, top);
  for (const c of containers.values()) graphs.set(c.id, { nodes: [...c.nodes], edges: [] });
  for (const id of [...blockIds, ...containers.keys()]) if (!parentOf.has(id)) top.nodes.push(id);

  for (const edge of edges) {
    const from = chainOf(edge.source);
    const to = chainOf(edge.target);
    let common = 0;
    while (common < from.length && common < to.length && from[common] === to[common]) common++;
    const graph = graphs.get(common === 0 ? TOP_LEVEL : from[common - 1]) as GraphShape;
    const source = common < from.length ? from[common] : edge.source;
    const target = common < to.length ? to[common] : edge.target;
    const handle = handleKind(edge.sourceHandle) === "plain" ? null : (edge.sourceHandle as string);
    graph.edges.push({ source, target, handle, leavesSection: source !== edge.source, edge });
  }
  return { containers, parentOf, graphs, chainOf };
}
