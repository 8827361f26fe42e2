import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { workspacePermissions } from "../../db/schema/index.ts";
import { forbidden } from "../../errors.ts";
import { type CompiledStatement, compileStatement, placeholder as p } from "../executions/compiled-statement.ts";

export type Permission = "read" | "write" | "admin";
const rank: Record<Permission, number> = { read: 1, write: 2, admin: 3 };

// Runs on most requests: compiled once, each call only binds values.
let lookup: CompiledStatement | undefined;

/** The user's permission on the workspace, or null when they have none. */
export async function getWorkspacePermission(
  ctx: AppDeps,
  userId: string,
  workspaceId: string,
): Promise<Permission | null> {
  lookup ??= compileStatement(
    ctx.db
      .select({ permission: workspacePermissions.permission })
      .from(workspacePermissions)
      .where(and(eq(workspacePermissions.workspaceId, p("workspaceId")), eq(workspacePermissions.userId, p("userId")))),
  );
  const { rows } = await ctx.database.client.execute(lookup({ workspaceId, userId }));
  return (rows[0]?.[0] as Permission | undefined) ?? null;
}

export function permits(have: Permission | null, need: Permission): boolean {
  return have !== null && rank[have] >= rank[need];
}

/** Throws 403 unless the user holds at least `need` on the workspace. */
export async function requireWorkspacePermission(
  ctx: AppDeps,
  userId: string,
  workspaceId: string,
  need: Permission,
): Promise<Permission> {
  const have = await getWorkspacePermission(ctx, userId, workspaceId);
  if (!permits(have, need)) {
    throw forbidden(
      have === null
        ? "You do not have access to this workspace"
        : `This action needs ${need} permission on the workspace`,
    );
  }
  return have as Permission;
}
