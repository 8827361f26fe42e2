import { eq } from "drizzle-orm";
import type { ExecutionResponse } from "../../../contract/workflows/schemas.ts";
import type { AppDeps } from "../../context.ts";
import { workflows, workspaces } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../errors.ts";
import { assertWithinUsageLimit } from "../../limits/execution-limits.ts";
import { runExecution } from "../executions/run-execution.ts";
import { iso } from "../iso.ts";
import { loadDeploymentState } from "../workflows/deployment-state-cache.ts";

/**
 * A run started by hand (the `manual` trigger) by an operator: the deployed version, billed to the
 * workspace's owner. The usage limit applies (402); rate limits do not.
 */
export async function runWorkflow({ ctx, input }: { ctx: AppDeps; input: { id: string; input?: unknown } }): Promise<ExecutionResponse> {
  const [row] = await ctx.db
    .select({ id: workflows.id, workspaceId: workflows.workspaceId, deploymentId: workflows.deployedVersionId, ownerId: workspaces.ownerId })
    .from(workflows)
    .innerJoin(workspaces, eq(workspaces.id, workflows.workspaceId))
    .where(eq(workflows.id, input.id));
  if (!row) throw notFound("Workflow");
  const state = row.deploymentId ? await loadDeploymentState(ctx, row.deploymentId) : null;
  if (!row.deploymentId || !state) {
    throw new AppError(400, "WORKFLOW_NOT_DEPLOYED", `Workflow ${row.id} is not deployed: deploy it before running it`);
  }
  await assertWithinUsageLimit(ctx, row.ownerId);
  const run = await runExecution({
    ctx,
    workflow: row,
    deployment: { id: row.deploymentId, state },
    input: input.input ?? {},
    trigger: "manual",
    userId: row.ownerId,
  });
  return {
    success: run.success,
    executionId: run.executionId,
    output: run.output ?? null,
    error: run.success ? null : (run.error ?? "The workflow failed"),
    metadata: { startTime: iso(run.startedAt), endTime: iso(run.endedAt), duration: run.durationMs },
  };
}
