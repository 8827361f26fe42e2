import type { GetLogOutput } from "../../../contract/logs/get-log.ts";
import type { UserContext } from "../../context.ts";
import { getLimits } from "../../limits/execution-limits.ts";
import { fullCost, parseJsonColumn, runTiming } from "./log-fields.ts";
import { loadReadableLog } from "./load-readable-log.ts";

/** One completed run's log detail (spec 2.5): full cost, trace spans, final output and limits. */
export async function getLog({ ctx, input }: { ctx: UserContext; input: { id: string } }): Promise<GetLogOutput> {
  const log = await loadReadableLog(ctx, { id: input.id });
  const limits = await getLimits(ctx, ctx.actor.userId);
  const spans = parseJsonColumn(log.traceSpans);
  return {
    data: {
      id: log.id,
      workflowId: log.workflowId,
      executionId: log.executionId,
      level: log.level,
      trigger: log.trigger,
      ...runTiming(log),
      cost: fullCost(log.cost, log.costTotal),
      workflow: { id: log.workflowId, name: log.workflowName ?? "", description: log.workflowDescription ?? "" },
      executionData: { traceSpans: Array.isArray(spans) ? spans : [], finalOutput: parseJsonColumn(log.finalOutput) },
      limits,
    },
  };
}
