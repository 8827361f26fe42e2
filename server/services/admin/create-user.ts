import { eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { users } from "../../db/schema/index.ts";
import { conflict } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { iso } from "../iso.ts";

export async function createUser({ ctx, input }: { ctx: AppDeps; input: { email: string; name: string } }) {
  const email = input.email.toLowerCase();
  const existing = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (existing) throw conflict(`A user with e-mail ${email} already exists`);
  const row = { id: newId("usr"), email, name: input.name, createdAt: ctx.clock.now() };
  await ctx.db.insert(users).values(row);
  return { ...row, createdAt: iso(row.createdAt) };
}
