import { newId } from "../ids.ts";
import type { BlockOutcome, ResponseSpec } from "./blocks/block-handler.ts";
import { type PlannedBlock, planFor } from "./plan.ts";
import type { ChatMessage, ExecutionResult, ExecutorDeps, TraceSpan, WorkflowState } from "./types.ts";

export type RunWorkflowInput = {
  state: WorkflowState;
  input: unknown;
  deps: ExecutorDeps;
  executionId: string;
  /** The run's workspace; "" when the run has none (unit tests). */
  workspaceId?: string;
  conversation?: readonly ChatMessage[];
};

/** Status for a state that does not validate: the workflow, not the run, is at fault. */
export const INVALID_WORKFLOW_STATUS = 400;

/**
 * Runs a workflow state to completion. Never throws for workflow failures: they come back as
 * `success: false` with an error message and the status a synchronous caller should get.
 */
export async function runWorkflow({ state, input, deps, executionId, workspaceId = "", conversation }: RunWorkflowInput): Promise<ExecutionResult> {
  const startedAt = deps.clock.now();
  const plan = planFor(state);
  if (plan.issues.length > 0) {
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

  const { blocks, inDegree } = plan;
  const outputs: unknown[] = new Array(blocks.length);
  const pending = inDegree.slice();
  const activeIn = new Int32Array(blocks.length);
  const traceSpans: TraceSpan[] = [];
  let failure: string | null = null;
  let response: ResponseSpec | undefined;
  let lastOutput: unknown;
  let inFlight = 0;

  const runBlock = async (planned: PlannedBlock): Promise<boolean> => {
    const startMs = deps.clock.now();
    const { block } = planned;
    const span: TraceSpan = {
      id: newId("span"),
      name: block.name,
      type: block.type,
      blockId: planned.id,
      status: "success",
      startTime: new Date(startMs).toISOString(),
      endTime: "",
      duration: 0,
      input: null,
      output: null,
      error: null,
      children: [],
    };
    traceSpans.push(span); // pushed at start, so spans are ordered by start
    let params: Record<string, unknown> = {};
    let result: BlockOutcome;
    try {
      params = (planned.params.constant ? planned.params.value : planned.params.resolve(outputs)) as Record<string, unknown>;
      result = await planned.handler.run(params, { deps, executionId, workspaceId, blockId: planned.id, input, conversation });
    } catch (err) {
      result = { output: null, error: err instanceof Error && err.message ? err.message : "The block failed unexpectedly" };
    }
    const endMs = deps.clock.now();
    span.endTime = new Date(endMs).toISOString();
    span.duration = Math.max(0, endMs - startMs);
    span.input = result.traceInput ?? params;
    span.output = result.traceOutput ?? result.output ?? null;
    span.error = result.error;
    if (result.error !== null) span.status = "error";
    outputs[planned.index] = result.output;
    lastOutput = result.output;
    if (result.response) response = result.response;
    if (result.error !== null && !result.continueOnError) {
      failure ??= `Block "${block.name}" failed: ${result.error}`;
      return false;
    }
    return true;
  };

  await new Promise<void>((done) => {
    // A block becomes ready once every incoming edge is settled; it runs when at least one of
    // them was followed, otherwise it is skipped and settles its own edges as not followed.
    const settle = (i: number, followed: boolean) => {
      for (const t of blocks[i].targets) {
        if (followed) activeIn[t]++;
        if (--pending[t] === 0) {
          if (activeIn[t] > 0) launch(t);
          else settle(t, false);
        }
      }
    };
    const launch = (i: number) => {
      if (failure !== null) return;
      const planned = blocks[i];
      if (!planned.enabled) return settle(i, false);
      inFlight++;
      void runBlock(planned).then((ok) => {
        inFlight--;
        if (ok) settle(i, true);
        if (inFlight === 0) done();
      });
    };
    launch(plan.start);
    if (inFlight === 0) done();
  });

  const success = failure === null;
  return {
    success,
    output: (response ? response.data : lastOutput) ?? null,
    error: failure,
    status: success ? (response?.status ?? 200) : 500,
    headers: success ? (response?.headers ?? {}) : {},
    traceSpans,
    modelUsage: [],
    startedAt,
    endedAt: deps.clock.now(),
  };
}
