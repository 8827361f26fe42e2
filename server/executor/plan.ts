import { normalizeBlockName } from "./block-names.ts";
import type { BlockHandler } from "./blocks/block-handler.ts";
import { blockHandler } from "./blocks/registry.ts";
import { compileTemplate, type Template } from "./template.ts";
import type { Block, ValidationIssue, WorkflowState } from "./types.ts";
import { validateWorkflowState } from "./validate-workflow-state.ts";

export type PlannedBlock = {
  index: number;
  id: string;
  block: Block;
  handler: BlockHandler;
  enabled: boolean;
  params: Template;
  /** Indexes of the blocks this one has edges to (one entry per edge). */
  targets: number[];
};

/** What runWorkflow needs of a state, computed once per state object. */
export type Plan = {
  issues: ValidationIssue[];
  /** Blocks reachable from the start block; the others never run. */
  blocks: PlannedBlock[];
  start: number;
  /** Number of incoming edges of each planned block. */
  inDegree: Int32Array;
};

const plans = new WeakMap<object, Plan>();

/**
 * The plan of a state, cached on the state object: a deployed state is a snapshot that is never
 * mutated, so validation, graph order and reference parsing happen once, not per execution.
 */
export function planFor(state: WorkflowState): Plan {
  if (state === null || typeof state !== "object") return compilePlan(state);
  let plan = plans.get(state);
  if (!plan) {
    plan = compilePlan(state);
    plans.set(state, plan);
  }
  return plan;
}

function compilePlan(state: WorkflowState): Plan {
  const issues = validateWorkflowState(state);
  if (issues.length > 0) return { issues, blocks: [], start: -1, inDegree: new Int32Array(0) };
  const entries = Object.entries(state.blocks);
  const startId = entries.find(([, b]) => b.type === "start")?.[0] as string;
  const next = new Map<string, string[]>();
  for (const edge of state.edges) next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);

  const index = new Map<string, number>();
  const order: string[] = [startId];
  index.set(startId, 0);
  for (let i = 0; i < order.length; i++) {
    for (const target of next.get(order[i]) ?? []) {
      if (index.has(target)) continue;
      index.set(target, order.length);
      order.push(target);
    }
  }
  const names = new Map<string, number>();
  for (const [id, block] of entries) names.set(normalizeBlockName(block.name), index.get(id) ?? -1);
  if (!names.has("start")) names.set("start", 0);

  const inDegree = new Int32Array(order.length);
  const blocks = order.map((id, i): PlannedBlock => {
    const block = state.blocks[id];
    const targets = (next.get(id) ?? []).map((t) => index.get(t) as number);
    for (const t of targets) inDegree[t]++;
    return {
      index: i,
      id,
      block,
      handler: blockHandler(block.type) as BlockHandler,
      enabled: block.enabled !== false,
      params: compileTemplate(block.params ?? {}, names),
      targets,
    };
  });
  return { issues: [], blocks, start: 0, inDegree };
}
