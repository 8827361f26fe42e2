import type { AppDeps } from "../../context.ts";
import { AppError, forbidden, notFound } from "../../errors.ts";
import type { WorkflowState } from "../../executor/types.ts";
import { permits } from "../auth/require-workspace-permission.ts";
import { loadDeploymentState } from "./deployment-state-cache.ts";
import { findRunnableWorkflow } from "./find-runnable-workflow.ts";

export type DeployedWorkflow = { id: string; workspaceId: string; deploymentId: string; state: WorkflowState };

/**
 * The deployed version of a workflow the user may run: 404 when it does not exist or the user cannot
 * see it, 403 without write permission, 400 when it is not deployed.
 */
export async function findDeployedWorkflow(
  ctx: Pick<AppDeps, "db" | "database">,
  userId: string,
  id: string,
): Promise<DeployedWorkflow> {
  const row = await findRunnableWorkflow(ctx, userId, id);
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
  return { id: row.id, workspaceId: row.workspaceId, deploymentId: row.deploymentId, state };
}
