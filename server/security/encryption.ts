import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** AES-256 keys are 32 bytes. */
export const ENCRYPTION_KEY_BYTES = 32;
const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED = /^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]*$/;

/** The text is not a secret sealed under this key: malformed, tampered with, or sealed under another key. */
export class DecryptionError extends Error {
  constructor() {
    super("The secret could not be decrypted");
    this.name = "DecryptionError";
  }
}

/**
 * Seals a secret with AES-256-GCM under a fresh random IV: `v1:<iv>:<tag>:<ciphertext>`, each part
 * base64url. The version prefix lets a later format or key rotation coexist with stored values.
 */
export function encryptSecret(plain: string, key: Uint8Array): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(":");
}

/** Opens a value made by encryptSecret; throws DecryptionError when the tag does not verify. */
export function decryptSecret(sealed: string, key: Uint8Array): string {
  assertKey(key);
  if (!isSealedSecret(sealed)) throw new DecryptionError();
  const [, iv, tag, ciphertext] = sealed.split(":");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new DecryptionError();
  }
}

/** Whether a value has the shape of a sealed secret (says nothing about the key it was sealed under). */
export function isSealedSecret(value: unknown): value is string {
  return typeof value === "string" && SEALED.test(value);
}

/**
 * An ENCRYPTION_KEY setting: 32 bytes written as 64 hex characters or as base64 (standard or URL
 * alphabet, padding optional). Throws with a message naming the expected forms.
 */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed, "base64");
    if (key.length === ENCRYPTION_KEY_BYTES) return key;
  }
  throw new Error("ENCRYPTION_KEY must be 32 bytes written as 64 hex characters or as base64");
}

function assertKey(key: Uint8Array): void {
  if (key.length !== ENCRYPTION_KEY_BYTES) throw new Error(`The encryption key must be ${ENCRYPTION_KEY_BYTES} bytes`);
}
