import type { Folder } from "../../../contract/folders/schemas.ts";
import type { UserContext } from "../../context.ts";
import { folders } from "../../db/schema/index.ts";
import { newId } from "../../ids.ts";
import { requireWorkspacePermission } from "../auth/require-workspace-permission.ts";
import { assertFolderInWorkspace } from "./assert-folder-in-workspace.ts";
import { toFolder } from "./to-folder.ts";

/** Creates a folder; a parent must be a folder of the same workspace. */
export async function createFolder({
  ctx,
  input,
}: {
  ctx: UserContext;
  input: { workspaceId: string; name: string; parentId?: string | null };
}): Promise<Folder> {
  await requireWorkspacePermission(ctx, ctx.actor.userId, input.workspaceId, "write");
  const parentId = input.parentId ?? null;
  if (parentId !== null) await assertFolderInWorkspace(ctx, parentId, input.workspaceId, "parentId");
  const row = { id: newId("fld"), workspaceId: input.workspaceId, parentId, name: input.name, createdAt: ctx.clock.now() };
  await ctx.db.insert(folders).values(row);
  return toFolder(row);
}
