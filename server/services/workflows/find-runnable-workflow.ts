import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { workflows, workspacePermissions } from "../../db/schema/index.ts";
import type { Permission } from "../auth/require-workspace-permission.ts";
import { type CompiledStatement, compileStatement, placeholder as p } from "../executions/compiled-statement.ts";

export type RunnableWorkflow = {
  id: string;
  workspaceId: string;
  deploymentId: string | null;
  /** The caller's permission on the workflow's workspace; null when they have none. */
  permission: Permission | null;
};

let lookup: CompiledStatement | undefined;

/**
 * What an execution needs to know about a workflow, with the caller's permission, in one query
 * compiled once (this runs on every execution; the deployed state itself comes from the cache).
 */
export async function findRunnableWorkflow(
  ctx: Pick<AppDeps, "db" | "database">,
  userId: string,
  id: string,
): Promise<RunnableWorkflow | null> {
  lookup ??= compileStatement(
    ctx.db
      .select({
        id: workflows.id,
        workspaceId: workflows.workspaceId,
        deploymentId: workflows.deployedVersionId,
        permission: workspacePermissions.permission,
      })
      .from(workflows)
      .leftJoin(
        workspacePermissions,
        and(eq(workspacePermissions.workspaceId, workflows.workspaceId), eq(workspacePermissions.userId, p("userId"))),
      )
      .where(eq(workflows.id, p("id"))),
  );
  const { rows } = await ctx.database.client.execute(lookup({ userId, id }));
  const row = rows[0];
  if (!row) return null;
  return {
    id: row[0] as string,
    workspaceId: row[1] as string,
    deploymentId: (row[2] as string | null) ?? null,
    permission: (row[3] as Permission | null) ?? null,
  };
}
