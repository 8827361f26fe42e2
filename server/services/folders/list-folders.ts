import { asc, eq } from "drizzle-orm";
import type { Folder } from "../../../contract/folders/schemas.ts";
import type { UserContext } from "../../context.ts";
import { folders } from "../../db/schema/index.ts";
import { requireWorkspacePermission } from "../auth/require-workspace-permission.ts";
import { toFolder } from "./to-folder.ts";

export async function listFolders({ ctx, input }: { ctx: UserContext; input: { workspaceId: string } }): Promise<Folder[]> {
  await requireWorkspacePermission(ctx, ctx.actor.userId, input.workspaceId, "read");
  const rows = await ctx.db
    .select()
    .from(folders)
    .where(eq(folders.workspaceId, input.workspaceId))
    .orderBy(asc(folders.createdAt), asc(folders.id));
  return rows.map(toFolder);
}
