import type { BlockOutcome, BlockRunContext } from "../blocks/block-handler.ts";
import type { TraceSpan } from "../types.ts";
import type { BlockNode } from "./graph.ts";
import { BLOCK_RUNS_PER_YIELD, MAX_BLOCK_RUNS } from "./limits.ts";
import { CONTINUED, HANDLED, type NodeOutcome, STOPPED, SUCCEEDED } from "./outcome.ts";
import { addModelUsage, type Scope } from "./scope.ts";
import { closeSpan, openSpan } from "./spans.ts";
import { yieldToEventLoop } from "./yield-to-event-loop.ts";

const NO_PARAMS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** Runs one block (with its retry setting), records its span and output, and says how it ended. */
export async function runBlockNode(node: BlockNode, scope: Scope, spans: TraceSpan[]): Promise<NodeOutcome> {
  const run = scope.run;
  if (++run.blockRuns > MAX_BLOCK_RUNS) {
    const message = `The run exceeded ${MAX_BLOCK_RUNS} block runs`;
    run.failure ??= message;
    return { status: "failed", message };
  }
  if (run.blockRuns % BLOCK_RUNS_PER_YIELD === 0) {
    await yieldToEventLoop();
    if (run.failure !== null) return { status: "failed", message: STOPPED };
  }
  const { deps } = run;
  const { block } = node;
  const startMs = deps.clock.now();
  const span = openSpan(block.name, block.type, node.id, scope.tags, startMs);
  spans.push(span);

  let params = NO_PARAMS;
  let result: BlockOutcome;
  let attempts = 0;
  try {
    params = (node.params.constant ? node.params.value : node.params.resolve(scope)) as Record<string, unknown>;
    const ctx: BlockRunContext = {
      deps,
      executionId: run.executionId,
      workspaceId: run.workspaceId,
      blockId: node.id,
      input: run.input,
      conversation: run.conversation,
      variables: run.variables,
    };
    for (;;) {
      attempts++;
      result = await attempt(node, params, ctx);
      if (result.modelUsage !== undefined) addModelUsage(run, result.modelUsage);
      if (result.error === null || node.retry === null || attempts >= node.retry.tries || run.failure !== null) break;
      deps.logger.debug("block retry", { executionId: run.executionId, blockId: node.id, attempt: attempts, delayMs: node.retry.waitMs });
      if (node.retry.waitMs > 0) await deps.sleep(node.retry.waitMs);
    }
  } catch (err) {
    result = failure(err);
  }

  closeSpan(span, startMs, deps.clock.now());
  span.input = result.traceInput ?? params;
  span.output = result.traceOutput ?? result.output ?? null;
  span.error = result.error;
  if (node.retry !== null) span.attempts = attempts;
  if (result.response !== undefined) run.response = result.response;
  let output = result.output === undefined ? null : result.output;

  if (result.error === null) {
    scope.values[node.index] = output;
    run.lastOutput = output;
    return result.selectedHandle === undefined ? SUCCEEDED : { status: "ok", handle: result.selectedHandle };
  }
  span.status = "error";
  if (node.routesErrors) {
    output = withError(output, result.error);
    span.errorHandled = true;
  }
  scope.values[node.index] = output;
  run.lastOutput = output;
  if (node.routesErrors) return HANDLED;
  if (result.continueOnError === true) return CONTINUED;
  const message = `Block "${block.name}" failed: ${result.error}`;
  run.failure ??= message;
  return { status: "failed", message };
}

async function attempt(node: BlockNode, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  try {
    return await node.handler.run(params, ctx);
  } catch (err) {
    return failure(err);
  }
}

function failure(err: unknown): BlockOutcome {
  return { output: null, error: err instanceof Error && err.message ? err.message : "The block failed unexpectedly" };
}

/** The output error edges pass on: the block's own output fields (if an object) with `error` set. */
function withError(output: unknown, error: string): Record<string, unknown> {
  if (output !== null && typeof output === "object" && !Array.isArray(output)) return { ...(output as Record<string, unknown>), error };
  return { error };
}
