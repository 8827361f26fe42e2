import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { workflowDeployments, workflows, workspacePermissions } from "../../db/schema/index.ts";
import { forbidden, notFound } from "../../errors.ts";
import { type Permission, permits } from "../auth/require-workspace-permission.ts";

export type WorkflowRecord = typeof workflows.$inferSelect & {
  /** When the live deployment was made; null when not deployed. */
  deployedAt: number | null;
  /** The state version the live deployment snapshotted. */
  deployedStateVersion: number | null;
};

/**
 * The workflow with its live deployment's time and state version, in one query that also reads the
 * caller's permission. A workflow in a workspace the caller cannot access answers 404, as if it did
 * not exist; one they can see but lack `need` on answers 403.
 */
export async function findWorkflowForUser(
  ctx: AppDeps,
  userId: string,
  id: string,
  need: Permission,
): Promise<WorkflowRecord> {
  const row = await ctx.db
    .select({
      workflow: workflows,
      permission: workspacePermissions.permission,
      deployedAt: workflowDeployments.createdAt,
      deployedStateVersion: workflowDeployments.stateVersion,
    })
    .from(workflows)
    .leftJoin(
      workspacePermissions,
      and(eq(workspacePermissions.workspaceId, workflows.workspaceId), eq(workspacePermissions.userId, userId)),
    )
    .leftJoin(workflowDeployments, eq(workflowDeployments.id, workflows.deployedVersionId))
    .where(eq(workflows.id, id))
    .get();
  if (!row || row.permission === null) throw notFound("Workflow");
  if (!permits(row.permission, need)) throw forbidden(`This action needs ${need} permission on the workspace`);
  return { ...row.workflow, deployedAt: row.deployedAt, deployedStateVersion: row.deployedStateVersion };
}
