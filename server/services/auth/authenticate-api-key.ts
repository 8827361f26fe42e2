import { eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { apiKeys } from "../../db/schema/index.ts";
import { hashApiKey } from "../../security/api-keys.ts";
import { type CompiledStatement, compileStatement, placeholder as p } from "../executions/compiled-statement.ts";

const LAST_USED_RESOLUTION_MS = 60_000;

// Every authenticated request runs these: compiled once, each call only binds values.
let lookup: CompiledStatement | undefined;
let touch: CompiledStatement | undefined;

/** The user an API key acts as, or null when the key is unknown. */
export async function authenticateApiKey({
  ctx,
  key,
}: {
  ctx: AppDeps;
  key: string;
}): Promise<{ userId: string; apiKeyId: string } | null> {
  // Lookup is by SHA-256 hash through a unique index: the raw key is never compared or stored.
  lookup ??= compileStatement(
    ctx.db
      .select({ id: apiKeys.id, userId: apiKeys.userId, lastUsedAt: apiKeys.lastUsedAt })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, p("keyHash"))),
  );
  const { rows } = await ctx.database.client.execute(lookup({ keyHash: hashApiKey(key) }));
  const row = rows[0];
  if (!row) return null;
  const id = row[0] as string;
  const lastUsedAt = (row[2] as number | null) ?? null;
  const now = ctx.clock.now();
  if (lastUsedAt === null || now - lastUsedAt > LAST_USED_RESOLUTION_MS) {
    touch ??= compileStatement(ctx.db.update(apiKeys).set({ lastUsedAt: p("now") }).where(eq(apiKeys.id, p("id"))));
    await ctx.database.client.execute(touch({ now, id }));
  }
  return { userId: row[1] as string, apiKeyId: id };
}
