import { createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { PLAN_LIMITS, PLANS, type Plan, type PlanLimits } from "./plans.ts";

const bucketSchema = z.object({
  requestsPerMinute: z.number().positive(),
  maxBurst: z.number().positive(),
});

/** The signed part of a license (docs/license.md). */
export const licensePayloadSchema = z.object({
  licensee: z.string().min(1),
  plan: z.enum(PLANS),
  usageLimitUsd: z.number().nonnegative().optional(),
  rateLimits: z
    .object({ api: bucketSchema.optional(), sync: bucketSchema.optional(), async: bucketSchema.optional() })
    .optional(),
  issuedAt: z.string().datetime({ offset: true }).optional(),
  expiresAt: z.string().datetime({ offset: true }).optional(),
});
export type LicensePayload = z.infer<typeof licensePayloadSchema>;

const licenseDocumentSchema = z.object({ payload: licensePayloadSchema, signature: z.string().optional() });

export type License = {
  plan: Plan;
  limits: PlanLimits;
  licensee: string | null;
  /** Where the figures came from: a verified license, an unsigned one, or the free default. */
  source: "signed" | "unsigned" | "default";
};

export const DEFAULT_LICENSE: License = { plan: "free", limits: PLAN_LIMITS.free, licensee: null, source: "default" };

/** JSON with object keys sorted at every level: the exact bytes a license signature covers. */
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
 * without it, an unsigned license is accepted with a warning (development). No license: free plan.
 */
export function loadLicense(config: Config, logger: Logger, now: number): License {
  const text = config.license ?? (config.licenseFile ? readFileSync(config.licenseFile, "utf8") : undefined);
  if (!text) return DEFAULT_LICENSE;
  let doc: z.infer<typeof licenseDocumentSchema>;
  try {
    doc = licenseDocumentSchema.parse(JSON.parse(text));
  } catch (e) {
    throw new LicenseError(`The license is not valid: ${e instanceof Error ? e.message : String(e)}`);
  }
  let source: License["source"] = "unsigned";
  if (config.licensePublicKey) {
    if (!doc.signature) throw new LicenseError("The license has no signature, but LICENSE_PUBLIC_KEY is set");
    const key = createPublicKey(
      config.licensePublicKey.includes("BEGIN")
        ? config.licensePublicKey
        : { key: Buffer.from(config.licensePublicKey, "base64"), format: "der", type: "spki" },
    );
    const ok = verify(null, Buffer.from(canonicalJson(doc.payload)), key, Buffer.from(doc.signature, "base64"));
    if (!ok) throw new LicenseError("The license signature does not verify with LICENSE_PUBLIC_KEY");
    source = "signed";
  } else {
    logger.warn("Using an unsigned license (no LICENSE_PUBLIC_KEY): fine for development, not for delivery");
  }
  const p = doc.payload;
  if (p.expiresAt && Date.parse(p.expiresAt) <= now) {
    logger.warn("The license has expired; falling back to the free plan", { expiresAt: p.expiresAt });
    return DEFAULT_LICENSE;
  }
  const base = PLAN_LIMITS[p.plan];
  return {
    plan: p.plan,
    licensee: p.licensee,
    source,
    limits: {
      api: p.rateLimits?.api ?? base.api,
      sync: p.rateLimits?.sync ?? base.sync,
      async: p.rateLimits?.async ?? base.async,
      usageLimitUsd: p.usageLimitUsd ?? base.usageLimitUsd,
    },
  };
}
