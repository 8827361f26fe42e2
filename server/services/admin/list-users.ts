import { asc, count } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { users } from "../../db/schema/index.ts";
import { iso } from "../iso.ts";

export async function listUsers({ ctx, input }: { ctx: AppDeps; input: { limit: number; offset: number } }) {
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(input.limit).offset(input.offset),
    ctx.db.select({ total: count() }).from(users),
  ]);
  return {
    data: rows.map((u) => ({ ...u, createdAt: iso(u.createdAt) })),
    pagination: { limit: input.limit, offset: input.offset, total },
  };
}
