import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { folders } from "../../db/schema/index.ts";
import { invalidParameter } from "../../errors.ts";

/** 400 naming `parameter` unless `folderId` is a folder of the workspace. */
export async function assertFolderInWorkspace(
  ctx: AppDeps,
  folderId: string,
  workspaceId: string,
  parameter: string,
): Promise<void> {
  const found = await ctx.db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.workspaceId, workspaceId)))
    .get();
  if (!found) throw invalidParameter(parameter, `no folder ${folderId} in workspace ${workspaceId}`);
}
