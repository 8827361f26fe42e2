import { createHmac } from "node:crypto";
import { AppError } from "../../errors.ts";
import { secretsEqual } from "../../security/constant-time.ts";
import { DecryptionError } from "../../security/encryption.ts";
import type { SecretBox } from "../../security/secret-box.ts";

export const SECRET_HEADER = "x-webhook-secret";
export const SIGNATURE_HEADER = "x-webhook-signature";

/**
 * Checks a webhook call against its trigger's config: without a secret anyone may call; with one,
 * `X-Webhook-Secret` must equal it, or with `signature: "hmac-sha256"`, `X-Webhook-Signature` must be
 * `sha256=<hex HMAC-SHA256 of the raw body>`. Both compared in constant time; 401 otherwise.
 */
export function verifyWebhook(
  secrets: SecretBox,
  config: Record<string, unknown>,
  headers: Headers,
  rawBody: Uint8Array,
): void {
  if (typeof config.secret !== "string") return;
  let secret: string;
  try {
    secret = secrets.decrypt(config.secret);
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
    // Not the caller's fault: the key changed since the secret was stored (docs/triggers.md).
    throw new AppError(503, "SECRET_UNREADABLE", "The webhook's secret cannot be read with the current ENCRYPTION_KEY: deploy the workflow again with its secret");
  }
  if (config.signature === "hmac-sha256") {
    const given = headers.get(SIGNATURE_HEADER);
    if (given === null) throw rejected(`Missing ${SIGNATURE_HEADER} header (sha256=<hex HMAC-SHA256 of the body>)`);
    const expected = `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
    if (!secretsEqual(given.trim().toLowerCase(), expected)) throw rejected(`Invalid ${SIGNATURE_HEADER} header`);
    return;
  }
  const given = headers.get(SECRET_HEADER);
  if (given === null) throw rejected(`Missing ${SECRET_HEADER} header`);
  if (!secretsEqual(given, secret)) throw rejected(`Invalid ${SECRET_HEADER} header`);
}

function rejected(message: string): AppError {
  return new AppError(401, "UNAUTHORIZED", message);
}
