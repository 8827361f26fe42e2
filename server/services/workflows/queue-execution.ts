import type { AsyncExecutionResponse } from "../../../contract/workflows/schemas.ts";
import type { AppDeps } from "../../context.ts";
import { newId } from "../../ids.ts";
import { enqueueJobStatement } from "../../jobs/enqueue-job.ts";
import { assertWithinUsageLimit, takeExecutionToken } from "../../limits/execution-limits.ts";
import type { JobWaker } from "../../workers/job-waker.ts";
import { EXECUTION_JOB, type ExecutionJobPayload, queuedRunLog } from "../executions/execution-job.ts";
import { findDeployedWorkflow } from "./find-deployed-workflow.ts";

/** Attempts of a queued execution: a lost worker's job is run again after its lease ran out. */
export const EXECUTION_JOB_ATTEMPTS = 3;

type Deps = Pick<AppDeps, "db" | "database" | "clock" | "license" | "tokens" | "writes"> & { jobs: JobWaker };

/**
 * Accepts a run of the deployed version for later, for the `api` trigger in async mode. The same
 * checks as a synchronous run (404, 403, 400 not deployed, 402 usage), then one token of the
 * caller's async bucket (429); the job is in the database before the caller hears 202.
 */
export async function queueExecution({
  ctx,
  userId,
  input,
  baseUrl,
}: {
  ctx: Deps;
  userId: string;
  input: { id: string; input: unknown };
  /** Where the service is reached, for the statusUrl. */
  baseUrl: string;
}): Promise<AsyncExecutionResponse> {
  const workflow = await findDeployedWorkflow(ctx, userId, input.id);
  await assertWithinUsageLimit(ctx, userId);
  await takeExecutionToken(ctx, userId, "async");
  const payload: ExecutionJobPayload = {
    workflowId: workflow.id,
    workspaceId: workflow.workspaceId,
    deploymentId: workflow.deploymentId,
    executionId: newId("exec"),
    userId,
    trigger: "api",
    input: input.input,
  };
  const now = ctx.clock.now();
  const job = enqueueJobStatement(
    { kind: EXECUTION_JOB, payload, maxAttempts: EXECUTION_JOB_ATTEMPTS, workspaceId: workflow.workspaceId, userId },
    now,
  );
  // The job and its run's `running` log row in one transaction (docs/async-executions.md).
  await ctx.writes.write([job.statement, queuedRunLog(ctx.db, payload, now)]);
  ctx.jobs.wake();
  return {
    success: true,
    async: true,
    jobId: job.id,
    executionId: payload.executionId,
    message: "Execution queued",
    statusUrl: `${baseUrl.replace(/\/+$/, "")}/api/jobs/${job.id}`,
  };
}
