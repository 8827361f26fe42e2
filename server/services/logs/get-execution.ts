import type { ExecutionDetails } from "../../../contract/logs/schemas.ts";
import { workflowStateSchema } from "../../../contract/workflows/schemas.ts";
import type { UserContext } from "../../context.ts";
import { getLimits } from "../../limits/execution-limits.ts";
import { maskStartSecret } from "../../triggers/start-secret.ts";
import { fullCost, parseJsonColumn, runTiming } from "./log-fields.ts";
import { loadReadableLog } from "./load-readable-log.ts";

const EMPTY_STATE: ExecutionDetails["workflowState"] = { blocks: {}, edges: [], loops: {}, parallels: {} };

/** A completed execution with the deployed workflow snapshot it ran (spec 2.6). */
export async function getExecution({
  ctx,
  input,
}: {
  ctx: UserContext;
  input: { executionId: string };
}): Promise<ExecutionDetails> {
  const log = await loadReadableLog(ctx, { executionId: input.executionId });
  const limits = await getLimits(ctx, ctx.actor.userId);
  const timing = runTiming(log);
  return {
    executionId: log.executionId,
    workflowId: log.workflowId,
    workflowState: snapshot(ctx, log.deploymentState, log.executionId),
    executionMetadata: {
      trigger: log.trigger,
      startedAt: timing.startedAt,
      endedAt: timing.endedAt,
      totalDurationMs: timing.totalDurationMs,
      cost: fullCost(log.cost, log.costTotal),
    },
    limits,
  };
}

/** The deployment's stored state; runs without a deployment (or with an unreadable one) show an empty graph. */
function snapshot(ctx: UserContext, state: string | null, executionId: string): ExecutionDetails["workflowState"] {
  if (state === null) return EMPTY_STATE;
  const parsed = workflowStateSchema.safeParse(parseJsonColumn(state));
  // The webhook secret is stored sealed; not even the ciphertext leaves the service.
  if (parsed.success) return maskStartSecret(parsed.data);
  ctx.logger.warn("unreadable deployment snapshot", { executionId });
  return EMPTY_STATE;
}
