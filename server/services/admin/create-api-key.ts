import { eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { apiKeys, users } from "../../db/schema/index.ts";
import { notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { generateApiKey } from "../../security/api-keys.ts";
import { iso } from "../iso.ts";

/** Issues a key acting as the user. The key is returned once; only its hash is stored. */
export async function createApiKey({ ctx, input }: { ctx: AppDeps; input: { userId: string; name: string } }) {
  const user = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).get();
  if (!user) throw notFound(`User ${input.userId}`);
  const { key, hash, prefix } = generateApiKey();
  const row = { id: newId("key"), userId: input.userId, name: input.name, keyHash: hash, prefix, createdAt: ctx.clock.now() };
  await ctx.db.insert(apiKeys).values(row);
  return { id: row.id, name: row.name, key, createdAt: iso(row.createdAt) };
}
