import { blockLabel, normalizeBlockName } from "./block-names.ts";
import { blockHandler, BLOCK_TYPES } from "./blocks/registry.ts";
import { findCycles } from "./graph-checks.ts";
import { findReferences, forEachString } from "./references.ts";
import type { ValidationIssue } from "./types.ts";

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
/** Edge handles the executor follows; branch handles (error, condition-...) come with the blocks that use them. */
const FOLLOWED_HANDLES = new Set([undefined, null, "source"]);

/**
 * Every problem that would keep a workflow state from running, each naming the block (name and id)
 * or edge concerned. An empty list means runWorkflow will run it.
 */
export function validateWorkflowState(state: unknown): ValidationIssue[] {
  if (!isRecord(state)) return [{ message: "The workflow state must be an object {blocks, edges, loops, parallels}" }];
  const issues: ValidationIssue[] = [];
  if (!isRecord(state.blocks)) issues.push({ message: "blocks must be an object keyed by block id" });
  if (!Array.isArray(state.edges)) issues.push({ message: "edges must be an array" });
  for (const key of ["loops", "parallels"] as const) {
    const value = state[key];
    if (value === undefined) continue;
    if (!isRecord(value)) issues.push({ message: `${key} must be an object` });
    else if (Object.keys(value).length > 0) {
      issues.push({ message: `${key} are not supported yet (found ${key} ${Object.keys(value).join(", ")}); remove them to run this workflow` });
    }
  }
  if (issues.length > 0 || !isRecord(state.blocks) || !Array.isArray(state.edges)) return issues;

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
      }
    }
    if (typeof block.type !== "string" || blockHandler(block.type) === undefined) {
      issues.push({ blockId: id, message: `${label} has unknown type ${JSON.stringify(block.type)} (supported: ${BLOCK_TYPES.join(", ")})` });
    }
    if (block.type === "start") starts.push(id);
    if (block.params !== undefined && !isRecord(block.params)) issues.push({ blockId: id, message: `${label}: params must be an object` });
    if (block.enabled !== undefined && typeof block.enabled !== "boolean") {
      issues.push({ blockId: id, message: `${label}: enabled must be true or false` });
    }
  }
  const label = (id: string) => blockLabel(id, blocks.get(id)?.name);

  if (starts.length === 0) issues.push({ message: "The workflow needs exactly one start block (found none)" });
  if (starts.length > 1) {
    issues.push({ blockId: starts[1], message: `The workflow needs exactly one start block (found ${starts.map(label).join(", ")})` });
  }
  for (const id of starts) if (blocks.get(id)?.enabled === false) issues.push({ blockId: id, message: `${label(id)}: the start block cannot be disabled` });
  const startId = starts.length === 1 ? starts[0] : undefined;
  if (startId !== undefined && !names.has("start")) names.set("start", startId);

  const next = new Map<string, string[]>();
  for (const [i, edge] of state.edges.entries()) {
    if (!isRecord(edge) || typeof edge.source !== "string" || typeof edge.target !== "string") {
      issues.push({ message: `Edge #${i + 1} must be an object {source, target} with block ids` });
      continue;
    }
    const name = `Edge ${typeof edge.id === "string" ? `"${edge.id}"` : `#${i + 1}`} (${edge.source} -> ${edge.target})`;
    let ok = true;
    for (const end of ["source", "target"] as const) {
      const id = edge[end] as string;
      if (!blocks.has(id)) {
        issues.push({ message: `${name}: its ${end} block ${id} does not exist` });
        ok = false;
      }
    }
    if (!FOLLOWED_HANDLES.has(edge.sourceHandle as string | undefined)) {
      issues.push({ blockId: edge.source, message: `${name}: branch handle ${JSON.stringify(edge.sourceHandle)} is not supported yet` });
    }
    if (ok && edge.target === startId) issues.push({ blockId: startId, message: `${name}: the start block cannot have incoming edges` });
    if (ok) next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);
  }
  for (const id of findCycles([...blocks.keys()], next)) {
    issues.push({ blockId: id, message: `${label(id)} is on a cycle; cycles are only allowed inside loops` });
  }

  for (const [id, block] of blocks) {
    const params = isRecord(block.params) ? block.params : {};
    const unknown = new Set<string>();
    forEachString(params, (text) => {
      for (const ref of findReferences(text)) if (ref.hasPath && !names.has(ref.name)) unknown.add(ref.name);
    });
    for (const name of unknown) {
      issues.push({ blockId: id, message: `${label(id)} references <${name}...>, but no block is named "${name}"` });
    }
    const handler = typeof block.type === "string" ? blockHandler(block.type) : undefined;
    for (const message of handler?.validate(params) ?? []) issues.push({ blockId: id, message: `${label(id)}: ${message}` });
  }
  return issues;
}
