import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pid } from "node:process";
import { type Config, ConfigError } from "../config.ts";
import type { Logger } from "../logger.ts";
import { ENCRYPTION_KEY_BYTES, parseEncryptionKey } from "./encryption.ts";

export type EncryptionKeyOrigin = "env" | "file" | "generated" | "ephemeral" | "none";

/**
 * The key stored secrets are sealed with. ENCRYPTION_KEY wins. Without it, on the embedded database
 * (`file:`) the key kept in `<DATA_DIR>/encryption.key` is used, generated (0600) on first start
 * with a warning; `:memory:` gets a key for the life of the process. A shared database without
 * ENCRYPTION_KEY gets none: several processes would each invent their own.
 */
export function resolveEncryptionKey(
  config: Pick<Config, "encryptionKey" | "databaseUrl" | "dataDir">,
  logger: Logger,
): { key: Buffer | null; origin: EncryptionKeyOrigin } {
  if (config.encryptionKey !== undefined) {
    try {
      return { key: parseEncryptionKey(config.encryptionKey), origin: "env" };
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
    }
  }
  if (config.databaseUrl === ":memory:") return { key: randomBytes(ENCRYPTION_KEY_BYTES), origin: "ephemeral" };
  if (!config.databaseUrl.startsWith("file:")) {
    logger.warn("ENCRYPTION_KEY is not set: features that store secrets (webhook trigger secrets) are unavailable");
    return { key: null, origin: "none" };
  }
  const file = join(config.dataDir, "encryption.key");
  if (existsSync(file)) return { key: readKeyFile(file), origin: "file" };
  const generated = writeKeyFile(config.dataDir, file);
  if (generated.created) {
    logger.warn("ENCRYPTION_KEY is not set: generated an encryption key for stored secrets; back it up", { file });
  }
  return { key: generated.key, origin: generated.created ? "generated" : "file" };
}

function readKeyFile(file: string): Buffer {
  try {
    return parseEncryptionKey(readFileSync(file, "utf8"));
  } catch {
    throw new ConfigError(`Invalid configuration:\n  ${file} does not hold a valid encryption key`);
  }
}

/**
 * Writes a new key through a temporary file linked into place: the link fails if another process
 * (a cluster worker starting at the same time) got there first, and then its key is used.
 */
function writeKeyFile(dir: string, file: string): { key: Buffer; created: boolean } {
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(ENCRYPTION_KEY_BYTES);
  const temp = `${file}.${pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, `${key.toString("hex")}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  try {
    linkSync(temp, file);
    return { key, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return { key: readKeyFile(file), created: false };
  } finally {
    rmSync(temp, { force: true });
  }
}
