/**
 * Signs a license payload with an Ed25519 private key and prints the license document.
 *
 *   node --import tsx scripts/sign-license.ts <payload.json> <private-key.pem> > license.json
 *
 * The signature covers the canonical JSON of the payload (docs/license.md), the same bytes the
 * server verifies with LICENSE_PUBLIC_KEY.
 */
import { createPrivateKey, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { canonicalJson, licensePayloadSchema } from "../server/limits/license.ts";

function main(args: string[]): number {
  const [payloadFile, keyFile] = args;
  if (!payloadFile || !keyFile) {
    process.stderr.write("usage: node --import tsx scripts/sign-license.ts <payload.json> <private-key.pem>\n");
    return 2;
  }
  const payload: unknown = JSON.parse(readFileSync(payloadFile, "utf8"));
  const checked = licensePayloadSchema.safeParse(payload);
  if (!checked.success) {
    const lines = checked.error.issues.map((i) => `  ${i.path.join(".") || "(payload)"}: ${i.message}`);
    process.stderr.write(`The payload is not a valid license payload:\n${lines.join("\n")}\n`);
    return 1;
  }
  const key = createPrivateKey(readFileSync(keyFile, "utf8"));
  if (key.asymmetricKeyType !== "ed25519") {
    process.stderr.write(`The private key must be Ed25519, not ${key.asymmetricKeyType}\n`);
    return 1;
  }
  // Sign what was written (unknown fields included), exactly as the server will re-serialize it.
  const signature = sign(null, Buffer.from(canonicalJson(payload), "utf8"), key).toString("base64");
  process.stdout.write(`${JSON.stringify({ payload, signature }, null, 2)}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
