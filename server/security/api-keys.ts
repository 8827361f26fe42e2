import { createHash, randomBytes } from "node:crypto";

const KEY_PREFIX = "wsk_";

/** A new API key; only its hash is ever stored. */
export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const key = `${KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, KEY_PREFIX.length + 6) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}
