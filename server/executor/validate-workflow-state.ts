import { blockLabel, normalizeBlockName } from "./block-names.ts";
import { type BlockRegistry, builtInBlocks } from "./engine/block-registry.ts";
import { buildTopology, type Topology } from "./engine/topology.ts";
import { findCycles } from "./graph-checks.ts";
import type { ValidationIssue } from "./types.ts";
import { containerLabel, isRecord } from "./validation/labels.ts";
import { RESERVED_NAMES, validateContainers } from "./validation/validate-containers.ts";
import { edgeLabel, validateEdges } from "./validation/validate-edges.ts";
import { validateReferences } from "./validation/validate-references.ts";
import { retryIssues } from "./validation/validate-retry.ts";

/** A checked state: its issues, and when it has none, its nested graphs (see engine/topology.ts). */
export type CheckedState = { issues: ValidationIssue[]; topology: Topology | null; startId: string | undefined };

/**
 * Every problem that would keep a workflow state from running, each naming the block (name and id),
 * edge, loop or parallel concerned. An empty list means runWorkflow will run it.
 */
export function validateWorkflowState(state: unknown, registry: BlockRegistry = builtInBlocks): ValidationIssue[] {
  return checkWorkflowState(state, registry).issues;
}

export function checkWorkflowState(state: unknown, registry: BlockRegistry): CheckedState {
  const failed = (issues: ValidationIssue[]): CheckedState => ({ issues, topology: null, startId: undefined });
  if (!isRecord(state)) return failed([{ message: "The workflow state must be an object {blocks, edges, loops, parallels}" }]);
  const issues: ValidationIssue[] = [];
  if (!isRecord(state.blocks)) issues.push({ message: "blocks must be an object keyed by block id" });
  if (!Array.isArray(state.edges)) issues.push({ message: "edges must be an array" });
  for (const key of ["loops", "parallels"] as const) {
    if (state[key] !== undefined && !isRecord(state[key])) issues.push({ message: `${key} must be an object` });
  }
  if (issues.length > 0 || !isRecord(state.blocks) || !Array.isArray(state.edges)) return failed(issues);

  const blocks = new Map<string, Record<string, unknown>>();
  const names = new Map<string, string>(); // normalized name -> block id
  const starts: string[] = [];
  for (const [id, block] of Object.entries(state.blocks)) {
    if (!isRecord(block)) {
      issues.push({ blockId: id, message: `Block ${id} must be an object {type, name, params?, enabled?}` });
      continue;
    }
    blocks.set(id, block);
    const label = blockLabel(id, block.name);
    if (typeof block.name !== "string" || normalizeBlockName(block.name) === "") {
      issues.push({ blockId: id, message: `${label} needs a name (a non-blank string)` });
    } else {
      const key = normalizeBlockName(block.name);
      const other = names.get(key);
      if (other !== undefined) {
        const otherLabel = blockLabel(other, blocks.get(other)?.name);
        issues.push({ blockId: id, message: `${label} has the same reference name "${key}" as ${otherLabel}; rename one of them` });
      } else names.set(key, id);
      if (key === "start" && block.type !== "start") {
        issues.push({ blockId: id, message: `${label}: the name "start" is reserved for the start block` });
      } else if (key !== "start" && RESERVED_NAMES.has(key)) {
        issues.push({ blockId: id, message: `${label}: the name "${key}" is reserved (<${key}.x> has its own meaning)` });
      }
    }
    if (typeof block.type !== "string" || registry.handler(block.type) === undefined) {
      issues.push({ blockId: id, message: `${label} has unknown type ${JSON.stringify(block.type)} (supported: ${registry.types.join(", ")})` });
    }
    if (block.type === "start") starts.push(id);
    if (block.params !== undefined && !isRecord(block.params)) issues.push({ blockId: id, message: `${label}: params must be an object` });
    if (block.enabled !== undefined && typeof block.enabled !== "boolean") {
      issues.push({ blockId: id, message: `${label}: enabled must be true or false` });
    }
    for (const message of retryIssues(block.retry)) issues.push({ blockId: id, message: `${label}: ${message}` });
  }
  const label = (id: string) => blockLabel(id, blocks.get(id)?.name);

  if (starts.length === 0) issues.push({ message: "The workflow needs exactly one start block (found none)" });
  if (starts.length > 1) {
    issues.push({ blockId: starts[1], message: `The workflow needs exactly one start block (found ${starts.map(label).join(", ")})` });
  }
  for (const id of starts) if (blocks.get(id)?.enabled === false) issues.push({ blockId: id, message: `${label(id)}: the start block cannot be disabled` });
  const startId = starts.length === 1 ? starts[0] : undefined;
  if (startId !== undefined && !names.has("start")) names.set("start", startId);

  const sections = validateContainers({
    loops: isRecord(state.loops) ? state.loops : {},
    parallels: isRecord(state.parallels) ? state.parallels : {},
    blocks,
    names,
    startId,
    label,
  });
  issues.push(...sections.issues);
  const edges = validateEdges({ edges: state.edges, blocks, startId, label });
  issues.push(...edges.issues);

  let topology: Topology | null = null;
  const nodeLabel = (id: string) => {
    const c = sections.containers.get(id);
    return c && !blocks.has(id) ? containerLabel(c.kind, id) : label(id);
  };
  if (sections.membershipOk) {
    topology = buildTopology([...blocks.keys()], sections.containers, edges.valid);
    for (const [graphId, graph] of topology.graphs) {
      const next = new Map<string, string[]>();
      for (const e of graph.edges) {
        if (e.leavesSection && e.handle !== null) {
          const c = sections.containers.get(e.source);
          const where = c ? containerLabel(c.kind, c.id) : e.source;
          issues.push({
            blockId: e.edge.source,
            message: `${edgeLabel(e.edge, state.edges.indexOf(e.edge))}: the branch edge "${e.handle}" of ${label(e.edge.source)} cannot leave ${where}; only plain edges leave a loop or parallel`,
          });
        }
        next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
      }
      for (const id of findCycles(graph.nodes, next)) {
        const inside = graphId === "" ? "" : ` inside ${nodeLabel(graphId)}`;
        issues.push({ blockId: blocks.has(id) ? id : undefined, message: `${nodeLabel(id)} is on a cycle${inside}; edges must not form cycles (repeat blocks with a loop instead)` });
      }
    }
  } else {
    const next = new Map<string, string[]>();
    for (const e of edges.valid) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
    for (const id of findCycles([...blocks.keys()], next)) {
      issues.push({ blockId: id, message: `${label(id)} is on a cycle; edges must not form cycles (repeat blocks with a loop instead)` });
    }
  }

  issues.push(...validateReferences({ blocks, names, containers: sections.containers, topology, label }));
  for (const [id, block] of blocks) {
    const handler = typeof block.type === "string" ? registry.handler(block.type) : undefined;
    for (const message of handler?.validate(isRecord(block.params) ? block.params : {}) ?? []) issues.push({ blockId: id, message: `${label(id)}: ${message}` });
  }
  return { issues, topology: issues.length === 0 ? topology : null, startId };
}
