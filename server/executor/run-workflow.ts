import { type BlockRegistry, builtInBlocks } from "./engine/block-registry.ts";
import { runGraph } from "./engine/run-graph.ts";
import { type RunState, Scope } from "./engine/scope.ts";
import { planFor } from "./plan.ts";
import type { ChatMessage, ExecutionResult, ExecutorDeps, ModelUsage, TraceSpan, WorkflowState } from "./types.ts";

export type RunWorkflowInput = {
  state: WorkflowState;
  input: unknown;
  deps: ExecutorDeps;
  executionId: string;
  /** The run's workspace; "" when the run has none (unit tests). */
  workspaceId?: string;
  conversation?: readonly ChatMessage[];
  /** Block types to run with; the built-in ones unless given. */
  blocks?: BlockRegistry;
};

/** Status for a state that does not validate: the workflow, not the run, is at fault. */
export const INVALID_WORKFLOW_STATUS = 400;

/**
 * Runs a workflow state to completion. Never throws for workflow failures: they come back as
 * `success: false` with an error message and the status a synchronous caller should get.
 */
export async function runWorkflow(args: RunWorkflowInput): Promise<ExecutionResult> {
  const { state, input, deps, executionId, workspaceId = "", conversation, blocks = builtInBlocks } = args;
  const startedAt = deps.clock.now();
  const plan = planFor(state, blocks);
  if (plan.root === null) {
    return {
      success: false,
      output: null,
      error: `Invalid workflow: ${plan.issues.map((i) => i.message).join("; ")}`,
      status: INVALID_WORKFLOW_STATUS,
      headers: {},
      traceSpans: [],
      modelUsage: [],
      startedAt,
      endedAt: deps.clock.now(),
    };
  }

  const run: RunState = {
    deps,
    executionId,
    workspaceId,
    input,
    conversation,
    variables: Object.create(null) as Record<string, unknown>,
    failure: null,
    blockRuns: 0,
    response: undefined,
    lastOutput: undefined,
    usage: new Map(),
  };
  const root = plan.root;
  const traceSpans: TraceSpan[] = [];
  await runGraph(root, Scope.fresh(root.nodes.length, root.hasSections, null, run, null, null), traceSpans);

  const success = run.failure === null;
  const { response } = run;
  return {
    success,
    output: (response ? response.data : run.lastOutput) ?? null,
    error: run.failure,
    status: success ? (response?.status ?? 200) : 500,
    headers: success ? (response?.headers ?? {}) : {},
    traceSpans,
    modelUsage: [...run.usage.values()] as ModelUsage[],
    startedAt,
    endedAt: deps.clock.now(),
  };
}
