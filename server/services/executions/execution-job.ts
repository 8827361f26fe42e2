import type { InStatement } from "@libsql/client";
import type { AppDeps } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { newId } from "../../ids.ts";
import type { WorkflowState } from "../../executor/types.ts";
import type { ClaimedJob } from "../../jobs/job.ts";
import type { JobContext } from "../../jobs/job-handler.ts";
import { loadDeploymentState } from "../workflows/deployment-state-cache.ts";
import { insertRunningLog } from "./execution-log-statements.ts";
import { type ExecutionTrigger, runExecution } from "./run-execution.ts";

/** Job kind of a queued workflow execution. */
export const EXECUTION_JOB = "workflow.execute";

/** What a queued execution carries: everything was checked (access, limits) when it was accepted. */
export type ExecutionJobPayload = {
  workflowId: string;
  workspaceId: string;
  deploymentId: string;
  executionId: string;
  userId: string;
  trigger: ExecutionTrigger;
  input: unknown;
};

/**
 * The `running` log row of a run being queued, written in the job's own transaction: it holds
 * ascending log pages behind the moment the run was accepted until it completes (a queued run is in
 * progress), and its completion moves `started_at` to when the run really started.
 */
export function queuedRunLog(db: Db, payload: ExecutionJobPayload, now: number): InStatement {
  return insertRunningLog(db, {
    id: newId("log"),
    workspaceId: payload.workspaceId,
    workflowId: payload.workflowId,
    executionId: payload.executionId,
    userId: payload.userId,
    deploymentId: payload.deploymentId,
    trigger: payload.trigger,
    startedAt: now,
  });
}

/** The job's stored result. */
export type ExecutionJobResult = { executionId: string; success: boolean; output: unknown; error: string | null };

type Deps = Pick<AppDeps, "db" | "database" | "fetch" | "clock" | "logger" | "models" | "writes" | "processId">;

const findLog =
  "SELECT id, status, final_output, error FROM execution_logs WHERE execution_id = ?";

/**
 * Runs one queued execution. A job is run at least once: when an earlier attempt's worker was lost,
 * the execution's log row tells what happened. A completed log is the answer as it stands (the run is
 * not repeated); a `running` one is completed by this attempt instead of a second row. The run's
 * record is committed together with the job's completion.
 */
export function executionJobHandler(deps: Deps) {
  return async (job: ClaimedJob, context?: JobContext): Promise<ExecutionJobResult> => {
    const payload = job.payload as ExecutionJobPayload;
    const { rows } = await deps.database.client.execute({ sql: findLog, args: [payload.executionId] });
    const earlier = rows[0];
    if (earlier && earlier[1] !== "running") {
      return {
        executionId: payload.executionId,
        success: earlier[1] === "success",
        output: typeof earlier[2] === "string" ? JSON.parse(earlier[2]) : null,
        error: (earlier[3] as string | null) ?? null,
      };
    }
    // A deployment snapshot is never deleted; should one be missing, the run fails as an invalid workflow.
    const state = (await loadDeploymentState(deps, payload.deploymentId)) as WorkflowState;
    const run = await runExecution({
      ctx: deps,
      workflow: { id: payload.workflowId, workspaceId: payload.workspaceId },
      deployment: { id: payload.deploymentId, state },
      input: payload.input,
      trigger: payload.trigger,
      userId: payload.userId,
      executionId: payload.executionId,
      logId: earlier ? (earlier[0] as string) : undefined,
      recordWith: context ? (statements) => context.completeWith(statements) : undefined,
    });
    return { executionId: run.executionId, success: run.success, output: run.output ?? null, error: run.success ? null : run.error };
  };
}
