import type { InStatement } from "@libsql/client";
import type { AppDeps } from "../../context.ts";
import { executionLogs } from "../../db/schema/index.ts";
import { runWorkflow } from "../../executor/index.ts";
import type { ChatMessage, ExecutionResult, ExecutorDeps, WorkflowState } from "../../executor/types.ts";
import { newId } from "../../ids.ts";
import { type CostObject, calculateCost } from "../../limits/cost.ts";
import { createExecutorDeps } from "./create-executor-deps.ts";
import { addUsage, completeLog, insertLogModels, insertRunningLog, type RunningLog } from "./execution-log-statements.ts";
import { toJson } from "./to-json.ts";

export type ExecutionTrigger = "api" | "webhook" | "schedule" | "manual" | "chat";

export type RunExecutionArgs = {
  ctx: Pick<AppDeps, "db" | "database" | "fetch" | "clock" | "logger" | "models" | "writes" | "processId">;
  workflow: { id: string; workspaceId: string };
  deployment: { id: string | null; state: WorkflowState };
  input: unknown;
  trigger: ExecutionTrigger;
  /** The user the run is billed to. */
  userId: string;
  /** A pre-assigned id (e.g. an async job told its caller); a new one otherwise. */
  executionId?: string;
  /**
   * The execution's `running` log row, already written (with its job when the run was queued, or by
   * an interrupted attempt): completed in place, with the run's real start, instead of a new row.
   */
  logId?: string;
  /**
   * Commits the completion statements somewhere else than in a transaction of their own: a queued
   * run's worker writes them with the job's completion (one commit, and the job is completed exactly
   * when its run is recorded; if that commit fails, the job is run again).
   */
  recordWith?: (statements: InStatement[]) => void;
  executorDeps?: Partial<ExecutorDeps>;
  /** Earlier turns of the conversation, oldest first (chat trigger). */
  conversation?: readonly ChatMessage[];
};

/** The executor's result, timed as the log records it, with the log's ids and the run's cost. */
export type RecordedExecution = ExecutionResult & {
  executionId: string;
  logId: string;
  level: "info" | "error";
  durationMs: number;
  cost: CostObject;
};

const UNEXPECTED_FAILURE = "The workflow could not be run because of an internal error";

/**
 * Runs one execution and records it: the log row is inserted as `running` first (it holds ascending
 * log pages behind the run's start until it completes), then completed together with its models and
 * the user's period usage in one batch. The executor throwing is recorded as a failed run, never left
 * `running`. Every trigger (api, webhook, schedule, chat, async jobs) runs through here.
 */
export async function runExecution(args: RunExecutionArgs): Promise<RecordedExecution> {
  const { ctx, workflow, deployment, trigger, userId } = args;
  const logId = args.logId ?? newId("log");
  const executionId = args.executionId ?? newId("exec");
  const startedAt = ctx.clock.now();
  const row = {
    id: logId,
    workspaceId: workflow.workspaceId,
    workflowId: workflow.id,
    executionId,
    userId,
    deploymentId: deployment.id,
    trigger,
    startedAt,
  };
  if (!args.logId) await ctx.writes.write([insertRunningLog(ctx.db, { ...row, ownerProcess: ctx.processId })]);

  const fields = { executionId, workflowId: workflow.id };
  let result: ExecutionResult;
  try {
    const deps = createExecutorDeps(ctx, fields, args.executorDeps);
    result = await runWorkflow({
      state: deployment.state,
      input: args.input,
      deps,
      executionId,
      workspaceId: workflow.workspaceId,
      conversation: args.conversation,
    });
  } catch (err) {
    ctx.logger.error("the executor failed unexpectedly", { ...fields, error: String(err) });
    result = failedResult(startedAt, ctx.clock.now());
  }

  const endedAt = Math.max(startedAt, ctx.clock.now());
  const durationMs = endedAt - startedAt;
  const level = result.success ? "info" : "error";
  const cost = calculateCost(result.modelUsage);
  const models = [...new Set(result.modelUsage.map((u) => u.model))];
  const statements: InStatement[] = [
    completeLog(ctx.db, {
      ...row,
      status: result.success ? "success" : "error",
      level,
      endedAt,
      totalDurationMs: durationMs,
      costTotal: cost.total,
      cost: JSON.stringify(cost),
      traceSpans: toJson(result.traceSpans),
      finalOutput: toJson(result.output),
      error: result.error,
    }),
    addUsage(ctx.db, userId, startedAt, cost.total),
  ];
  if (models.length > 0) statements.push(insertLogModels(ctx.db, row, models));
  if (args.recordWith) {
    args.recordWith(statements);
    return { ...result, startedAt, endedAt, executionId, logId, level, durationMs, cost };
  }
  try {
    // One transaction: the log, its models and the period usage never disagree.
    await ctx.writes.write(statements);
  } catch (err) {
    ctx.logger.error("recording the execution result failed", { ...fields, error: String(err) });
    await markFailed(ctx, row, endedAt, durationMs);
    throw err;
  }
  return { ...result, startedAt, endedAt, executionId, logId, level, durationMs, cost };
}

function failedResult(startedAt: number, endedAt: number): ExecutionResult {
  return {
    success: false,
    output: null,
    error: UNEXPECTED_FAILURE,
    status: 500,
    headers: {},
    traceSpans: [],
    modelUsage: [],
    startedAt,
    endedAt,
  };
}

/** Last resort when the full completion could not be written: at least do not leave the run `running`. */
async function markFailed(ctx: Pick<AppDeps, "db" | "logger">, row: RunningLog, endedAt: number, durationMs: number) {
  const failure = {
    status: "error" as const,
    level: "error" as const,
    endedAt,
    totalDurationMs: durationMs,
    error: "The execution result could not be recorded",
  };
  try {
    await ctx.db
      .insert(executionLogs)
      .values({ ...row, trigger: row.trigger as RunExecutionArgs["trigger"], ...failure })
      .onConflictDoUpdate({ target: executionLogs.id, set: failure });
  } catch (err) {
    ctx.logger.error("could not mark the execution log as failed", { logId: row.id, error: String(err) });
  }
}
