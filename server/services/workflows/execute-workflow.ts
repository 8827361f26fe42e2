import type { ExecutionResponse } from "../../../contract/workflows/schemas.ts";
import type { AppDeps } from "../../context.ts";
import { AppError, forbidden, notFound } from "../../errors.ts";
import { assertWithinUsageLimit, takeExecutionToken } from "../../limits/execution-limits.ts";
import { permits } from "../auth/require-workspace-permission.ts";
import { type RecordedExecution, runExecution } from "../executions/run-execution.ts";
import { iso } from "../iso.ts";
import { loadDeploymentState } from "./deployment-state-cache.ts";
import { findRunnableWorkflow } from "./find-runnable-workflow.ts";
import { safeResponseHeaders } from "./safe-response-headers.ts";

/** What a synchronous caller is answered with: status, headers and the JSON body. */
export type ExecutionAnswer = { status: number; headers: Record<string, string>; body: ExecutionResponse };

/**
 * Runs the deployed version of a workflow now, for the `api` trigger. Checks in this order: the
 * workflow exists and the caller may see it (404) and run it (403, write permission), it is deployed
 * (400), the usage limit (402), then one token of the caller's sync bucket (429).
 */
export async function executeWorkflow({
  ctx,
  userId,
  input,
}: {
  ctx: AppDeps;
  userId: string;
  input: { id: string; input: unknown };
}): Promise<ExecutionAnswer> {
  const row = await findRunnableWorkflow(ctx, userId, input.id);
  if (!row || row.permission === null) throw notFound("Workflow");
  if (!permits(row.permission, "write")) throw forbidden("Running a workflow needs write permission on the workspace");
  const state = row.deploymentId ? await loadDeploymentState(ctx, row.deploymentId) : null;
  if (!row.deploymentId || !state) {
    throw new AppError(
      400,
      "WORKFLOW_NOT_DEPLOYED",
      `Workflow ${row.id} is not deployed: deploy it (POST /api/workflows/${row.id}/deploy) before executing it`,
    );
  }
  await assertWithinUsageLimit(ctx, userId);
  await takeExecutionToken(ctx, userId, "sync");
  const run = await runExecution({
    ctx,
    workflow: row,
    deployment: { id: row.deploymentId, state },
    input: input.input,
    trigger: "api",
    userId,
  });
  return toAnswer(run);
}

function toAnswer(run: RecordedExecution): ExecutionAnswer {
  const body: ExecutionResponse = {
    success: run.success,
    executionId: run.executionId,
    output: run.output ?? null,
    error: run.success ? null : (run.error ?? "The workflow failed"),
    metadata: { startTime: iso(run.startedAt), endTime: iso(run.endedAt), duration: run.durationMs },
  };
  if (!run.success) {
    return { status: isStatus(run.status) && run.status >= 400 ? run.status : 500, headers: {}, body };
  }
  return { status: isStatus(run.status) ? run.status : 200, headers: safeResponseHeaders(run.headers), body };
}

function isStatus(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 200 && n <= 599;
}
