import { asc, count } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { workspaces } from "../../db/schema/index.ts";
import { iso } from "../iso.ts";

export async function listWorkspaces({ ctx, input }: { ctx: AppDeps; input: { limit: number; offset: number } }) {
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id)).limit(input.limit).offset(input.offset),
    ctx.db.select({ total: count() }).from(workspaces),
  ]);
  return {
    data: rows.map((w) => ({ ...w, createdAt: iso(w.createdAt) })),
    pagination: { limit: input.limit, offset: input.offset, total },
  };
}
