import type { ExecutionResponse } from "../../../contract/workflows/schemas.ts";
import type { AppDeps } from "../../context.ts";
import { assertWithinUsageLimit, takeExecutionToken } from "../../limits/execution-limits.ts";
import { type RecordedExecution, runExecution } from "../executions/run-execution.ts";
import { iso } from "../iso.ts";
import { findDeployedWorkflow } from "./find-deployed-workflow.ts";
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
  const workflow = await findDeployedWorkflow(ctx, userId, input.id);
  await assertWithinUsageLimit(ctx, userId);
  await takeExecutionToken(ctx, userId, "sync");
  const run = await runExecution({
    ctx,
    workflow,
    deployment: { id: workflow.deploymentId, state: workflow.state },
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
