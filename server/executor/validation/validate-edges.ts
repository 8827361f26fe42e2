import { CONDITION_PREFIX, ELSE_HANDLE, handleKind, ROUTE_PREFIX } from "../engine/handles.ts";
import type { Edge, ValidationIssue } from "../types.ts";
import { isRecord } from "./labels.ts";

type Input = {
  edges: readonly unknown[];
  blocks: ReadonlyMap<string, Record<string, unknown>>;
  startId: string | undefined;
  label(id: string): string;
};

/** `Edge "e1" (a -> b)`, or `Edge #3 (a -> b)` without an id. */
export function edgeLabel(edge: Edge, position: number): string {
  return `Edge ${typeof edge.id === "string" ? `"${edge.id}"` : `#${position + 1}`} (${edge.source} -> ${edge.target})`;
}

/** Checks each edge's ends and branch handle; returns the issues and the edges fit to build the graph from. */
export function validateEdges({ edges, blocks, startId, label }: Input): { issues: ValidationIssue[]; valid: Edge[] } {
  const issues: ValidationIssue[] = [];
  const valid: Edge[] = [];
  for (const [i, raw] of edges.entries()) {
    if (!isRecord(raw) || typeof raw.source !== "string" || typeof raw.target !== "string") {
      issues.push({ message: `Edge #${i + 1} must be an object {source, target} with block ids` });
      continue;
    }
    const edge = raw as Edge;
    const name = edgeLabel(edge, i);
    let ok = true;
    for (const end of ["source", "target"] as const) {
      if (!blocks.has(edge[end])) {
        issues.push({ message: `${name}: its ${end} block ${edge[end]} does not exist` });
        ok = false;
      }
    }
    if (!ok) continue;
    if (edge.target === startId) issues.push({ blockId: startId, message: `${name}: the start block cannot have incoming edges` });
    const problem = handleProblem(edge.sourceHandle, blocks.get(edge.source) as Record<string, unknown>);
    if (problem !== null) issues.push({ blockId: edge.source, message: `${name}: ${label(edge.source)} ${problem}` });
    valid.push(edge);
  }
  return { issues, valid };
}

/** Why a block cannot have an edge with this sourceHandle, or null when it can. */
function handleProblem(handle: unknown, block: Record<string, unknown>): string | null {
  const kind = handleKind(handle);
  if (kind === "plain" || kind === "error") return null;
  const params = isRecord(block.params) ? block.params : {};
  if (kind === "condition") {
    if (block.type !== "condition") return `has no branch ${JSON.stringify(handle)}: condition-<id> handles belong to condition blocks`;
    const ids = idsOf(params.conditions);
    if (handle === ELSE_HANDLE || ids.includes((handle as string).slice(CONDITION_PREFIX.length))) return null;
    return `has no condition ${JSON.stringify((handle as string).slice(CONDITION_PREFIX.length))} (handles: ${[...ids.map((id) => CONDITION_PREFIX + id), ELSE_HANDLE].join(", ")})`;
  }
  if (kind === "route") {
    if (block.type !== "router") return `has no branch ${JSON.stringify(handle)}: route-<id> handles belong to router blocks`;
    const ids = idsOf(params.routes);
    if (ids.includes((handle as string).slice(ROUTE_PREFIX.length))) return null;
    return `has no route ${JSON.stringify((handle as string).slice(ROUTE_PREFIX.length))} (handles: ${ids.map((id) => ROUTE_PREFIX + id).join(", ") || "none"})`;
  }
  return `has no branch ${JSON.stringify(handle)} (edge handles: error, condition-<id> on condition blocks, route-<id> on router blocks)`;
}

function idsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => (isRecord(item) && typeof item.id === "string" ? [item.id] : []));
}
