import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { PLAN_LIMITS, PLANS, type Plan, type PlanLimits } from "./plans.ts";

const bucketSchema = z.object({
  requestsPerMinute: z.number().positive(),
  // Below one token no request could ever pass.
  maxBurst: z.number().min(1),
});

/** The signed part of a license (docs/license.md). Unknown fields are allowed and covered by the signature. */
export const licensePayloadSchema = z.object({
  licensee: z.string().min(1),
  plan: z.enum(PLANS),
  usageLimitUsd: z.number().nonnegative().optional(),
  rateLimits: z
    .object({ api: bucketSchema.optional(), sync: bucketSchema.optional(), async: bucketSchema.optional() })
    .optional(),
  issuedAt: z.iso.datetime({ offset: true }).optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
});
export type LicensePayload = z.infer<typeof licensePayloadSchema>;

const licenseDocumentSchema = z.object({ payload: z.record(z.string(), z.unknown()), signature: z.string().optional() });

export type License = {
  plan: Plan;
  limits: PlanLimits;
  licensee: string | null;
  /** Where the figures came from: a verified license, an unsigned one, or the free default. */
  source: "signed" | "unsigned" | "default";
};

export const DEFAULT_LICENSE: License = { plan: "free", limits: PLAN_LIMITS.free, licensee: null, source: "default" };

/** JSON with object keys sorted at every level: the exact bytes (UTF-8) a license signature covers. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export class LicenseError extends Error {}

/**
 * Reads the installation's license. With LICENSE_PUBLIC_KEY set, the Ed25519 signature must verify;
 * without it, the license is accepted unverified with a warning (development). No license: free plan.
 * A license that is present but unusable stops the start-up rather than silently running as free.
 */
export function loadLicense(config: Config, logger: Logger, now: number): License {
  const text = config.license ?? (config.licenseFile ? readLicenseFile(config.licenseFile) : undefined);
  if (!text) return DEFAULT_LICENSE;
  let doc: z.infer<typeof licenseDocumentSchema>;
  let payload: LicensePayload;
  try {
    doc = licenseDocumentSchema.parse(JSON.parse(text));
    payload = licensePayloadSchema.parse(doc.payload);
  } catch (e) {
    throw new LicenseError(`The license is not valid: ${e instanceof Error ? e.message : String(e)}`);
  }
  let source: License["source"] = "unsigned";
  if (config.licensePublicKey) {
    if (!doc.signature) throw new LicenseError("The license has no signature, but LICENSE_PUBLIC_KEY is set");
    const key = parsePublicKey(config.licensePublicKey);
    // The signature covers the payload as issued, including fields this version does not know.
    const ok = verify(null, Buffer.from(canonicalJson(doc.payload), "utf8"), key, Buffer.from(doc.signature, "base64"));
    if (!ok) throw new LicenseError("The license signature does not verify with LICENSE_PUBLIC_KEY");
    source = "signed";
  } else {
    logger.warn("Using an unverified license (no LICENSE_PUBLIC_KEY): fine for development, not for delivery", {
      signed: doc.signature !== undefined,
    });
  }
  if (payload.expiresAt && Date.parse(payload.expiresAt) <= now) {
    logger.warn("The license has expired; falling back to the free plan", { expiresAt: payload.expiresAt });
    return DEFAULT_LICENSE;
  }
  const base = PLAN_LIMITS[payload.plan];
  return {
    plan: payload.plan,
    licensee: payload.licensee,
    source,
    limits: {
      api: payload.rateLimits?.api ?? base.api,
      sync: payload.rateLimits?.sync ?? base.sync,
      async: payload.rateLimits?.async ?? base.async,
      usageLimitUsd: payload.usageLimitUsd ?? base.usageLimitUsd,
    },
  };
}

function readLicenseFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new LicenseError(`Cannot read LICENSE_FILE ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Accepts a PEM (SPKI), base64 DER SPKI, or the raw 32-byte Ed25519 key in base64. */
function parsePublicKey(text: string): KeyObject {
  let key: KeyObject;
  try {
    if (text.includes("BEGIN")) {
      key = createPublicKey(text);
    } else {
      const bytes = Buffer.from(text.trim(), "base64");
      key =
        bytes.length === 32
          ? createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: bytes.toString("base64url") }, format: "jwk" })
          : createPublicKey({ key: bytes, format: "der", type: "spki" });
    }
  } catch (e) {
    throw new LicenseError(`LICENSE_PUBLIC_KEY is not a usable public key: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (key.asymmetricKeyType !== "ed25519") {
    throw new LicenseError(`LICENSE_PUBLIC_KEY must be an Ed25519 key, not ${key.asymmetricKeyType}`);
  }
  return key;
}
