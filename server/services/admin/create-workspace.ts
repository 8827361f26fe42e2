import { eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { users, workspacePermissions, workspaces } from "../../db/schema/index.ts";
import { AppError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { iso } from "../iso.ts";

/** Creates a workspace and gives its owner `admin` permission on it, in one batch. */
export async function createWorkspace({ ctx, input }: { ctx: AppDeps; input: { name: string; ownerId: string } }) {
  const owner = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, input.ownerId)).get();
  if (!owner) throw new AppError(400, "INVALID_PARAMETER", `Invalid parameter "ownerId": no user ${input.ownerId}`, { parameter: "ownerId" });
  const now = ctx.clock.now();
  const row = { id: newId("ws"), name: input.name, ownerId: input.ownerId, createdAt: now };
  await ctx.db.batch([
    ctx.db.insert(workspaces).values(row),
    ctx.db.insert(workspacePermissions).values({ workspaceId: row.id, userId: input.ownerId, permission: "admin", createdAt: now }),
  ]);
  return { ...row, createdAt: iso(now) };
}
