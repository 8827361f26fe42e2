import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { users } from "./db/schema/index.ts";

export type AdminKeyOrigin = "env" | "file" | "generated" | "none";

/**
 * Resolves the admin key: ADMIN_API_KEY wins; else the key kept in the data dir; else, on an empty
 * database, a new key is generated and stored there (0600) so a first start is usable at once.
 */
export async function resolveAdminKey(
  config: Config,
  database: Database,
): Promise<{ key?: string; origin: AdminKeyOrigin; file: string }> {
  const file = join(config.dataDir, "admin-api-key");
  if (config.adminApiKey) return { key: config.adminApiKey, origin: "env", file };
  if (existsSync(file)) return { key: readFileSync(file, "utf8").trim(), origin: "file", file };
  const anyUser = await database.db.select({ id: users.id }).from(users).limit(1).get();
  if (anyUser) return { origin: "none", file };
  const key = `adm_${randomBytes(32).toString("base64url")}`;
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // `wx`: of processes starting together on one data dir, the first one's key is everyone's.
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return { key: readFileSync(file, "utf8").trim(), origin: "file", file };
  }
  chmodSync(file, 0o600);
  return { key, origin: "generated", file };
}
