import { eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { apiKeys } from "../../db/schema/index.ts";
import { hashApiKey } from "../../security/api-keys.ts";

const LAST_USED_RESOLUTION_MS = 60_000;

/** The user an API key acts as, or null when the key is unknown. */
export async function authenticateApiKey({
  ctx,
  key,
}: {
  ctx: AppDeps;
  key: string;
}): Promise<{ userId: string; apiKeyId: string } | null> {
  // Lookup is by SHA-256 hash through a unique index: the raw key is never compared or stored.
  const row = await ctx.db
    .select({ id: apiKeys.id, userId: apiKeys.userId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hashApiKey(key)))
    .get();
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    await ctx.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
  }
  return { userId: row.userId, apiKeyId: row.id };
}
