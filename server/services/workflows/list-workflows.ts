import { and, asc, eq } from "drizzle-orm";
import type { WorkflowSummary } from "../../../contract/workflows/schemas.ts";
import type { UserContext } from "../../context.ts";
import { workflowDeployments, workflows } from "../../db/schema/index.ts";
import { requireWorkspacePermission } from "../auth/require-workspace-permission.ts";
import { toWorkflowSummary } from "./to-workflow.ts";

/** The workspace's workflows (optionally those directly in one folder), oldest first, without state. */
export async function listWorkflows({
  ctx,
  input,
}: {
  ctx: UserContext;
  input: { workspaceId: string; folderId?: string };
}): Promise<WorkflowSummary[]> {
  await requireWorkspacePermission(ctx, ctx.actor.userId, input.workspaceId, "read");
  const where = input.folderId
    ? and(eq(workflows.workspaceId, input.workspaceId), eq(workflows.folderId, input.folderId))
    : eq(workflows.workspaceId, input.workspaceId);
  const rows = await ctx.db
    .select({
      id: workflows.id,
      workspaceId: workflows.workspaceId,
      folderId: workflows.folderId,
      name: workflows.name,
      description: workflows.description,
      stateVersion: workflows.stateVersion,
      deployedVersionId: workflows.deployedVersionId,
      createdAt: workflows.createdAt,
      updatedAt: workflows.updatedAt,
      deployedAt: workflowDeployments.createdAt,
    })
    .from(workflows)
    .leftJoin(workflowDeployments, eq(workflowDeployments.id, workflows.deployedVersionId))
    .where(where)
    .orderBy(asc(workflows.createdAt), asc(workflows.id));
  return rows.map(toWorkflowSummary);
}
