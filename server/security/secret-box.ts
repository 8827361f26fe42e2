import { AppError } from "../errors.ts";
import { decryptSecret, encryptSecret } from "./encryption.ts";

/** Encryption of stored secrets (webhook trigger secrets) under the service's resolved key. */
export type SecretBox = {
  /** `v1:<iv>:<tag>:<ciphertext>`; 503 when no key is configured. */
  encrypt(plain: string): string;
  /** Throws DecryptionError for a value not sealed under this key; 503 when no key is configured. */
  decrypt(sealed: string): string;
};

/**
 * A box over the key, or, without one (a shared database and no ENCRYPTION_KEY), a box that refuses
 * every use: the service still starts, and only features storing secrets answer 503.
 */
export function createSecretBox(key: Buffer | null): SecretBox {
  if (key === null) {
    const refuse = (): never => {
      throw new AppError(
        503,
        "ENCRYPTION_KEY_MISSING",
        "Storing secrets needs ENCRYPTION_KEY to be set (32 bytes as 64 hex characters or base64)",
      );
    };
    return { encrypt: refuse, decrypt: refuse };
  }
  return {
    encrypt: (plain) => encryptSecret(plain, key),
    decrypt: (sealed) => decryptSecret(sealed, key),
  };
}
