import { eq } from "drizzle-orm";
import type { UserContext } from "../../context.ts";
import { executionLogs, workflowDeployments, workflows } from "../../db/schema/index.ts";
import { notFound } from "../../errors.ts";
import { getWorkspacePermission } from "../auth/require-workspace-permission.ts";

export type ReadableLog = typeof executionLogs.$inferSelect & {
  workflowName: string | null;
  workflowDescription: string | null;
  deploymentState: string | null;
};

/**
 * A completed run's log that the caller may read, with its workflow and deployed snapshot.
 * Unknown, still running and other workspaces' logs all answer the same 404, so ids leak nothing.
 */
export async function loadReadableLog(
  ctx: UserContext,
  by: { id: string } | { executionId: string },
): Promise<ReadableLog> {
  const what = "id" in by ? `Log ${by.id}` : `Execution ${by.executionId}`;
  const row = await ctx.db
    .select({
      log: executionLogs,
      workflowName: workflows.name,
      workflowDescription: workflows.description,
      deploymentState: workflowDeployments.state,
    })
    .from(executionLogs)
    .leftJoin(workflows, eq(workflows.id, executionLogs.workflowId))
    .leftJoin(workflowDeployments, eq(workflowDeployments.id, executionLogs.deploymentId))
    .where("id" in by ? eq(executionLogs.id, by.id) : eq(executionLogs.executionId, by.executionId))
    .get();
  if (!row || row.log.status === "running") throw notFound(what);
  const permission = await getWorkspacePermission(ctx, ctx.actor.userId, row.log.workspaceId);
  if (permission === null) throw notFound(what);
  return {
    ...row.log,
    workflowName: row.workflowName,
    workflowDescription: row.workflowDescription,
    deploymentState: row.deploymentState,
  };
}
