import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../server/config.ts";
import { canonicalJson, DEFAULT_LICENSE, LicenseError, loadLicense } from "../../../server/limits/license.ts";
import { PLAN_LIMITS } from "../../../server/limits/plans.ts";
import type { Logger } from "../../../server/logger.ts";

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function recordingLogger() {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (msg) => void warnings.push(msg), error() {} };
  return { logger, warnings };
}

const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: "/tmp/unused", ...env });

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return { publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(), publicKey, privateKey };
}

function signed(payload: Record<string, unknown>, privateKey: KeyObject): string {
  const signature = sign(null, Buffer.from(canonicalJson(payload)), privateKey).toString("base64");
  return JSON.stringify({ payload, signature });
}

const teamPayload = { licensee: "Acme Corp", plan: "team", expiresAt: "2027-01-01T00:00:00Z" };

describe("loadLicense", () => {
  it("is the free plan without a license", () => {
    const { logger, warnings } = recordingLogger();
    expect(loadLicense(config({}), logger, NOW)).toEqual(DEFAULT_LICENSE);
    expect(DEFAULT_LICENSE).toMatchObject({ plan: "free", source: "default", limits: PLAN_LIMITS.free });
    expect(warnings).toEqual([]);
  });

  it("accepts an unsigned license with a warning when no public key is configured", () => {
    const { logger, warnings } = recordingLogger();
    const license = loadLicense(config({ LICENSE: JSON.stringify({ payload: teamPayload }) }), logger, NOW);
    expect(license).toEqual({ plan: "team", licensee: "Acme Corp", source: "unsigned", limits: PLAN_LIMITS.team });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unverified license/i);
  });

  it("verifies a signed license with LICENSE_PUBLIC_KEY (PEM, base64 DER, raw base64)", () => {
    const { publicPem, publicKey, privateKey } = keyPair();
    const text = signed(teamPayload, privateKey);
    const der = publicKey.export({ type: "spki", format: "der" }).toString("base64");
    const raw = Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url").toString("base64");
    for (const key of [publicPem, der, raw]) {
      const { logger, warnings } = recordingLogger();
      const license = loadLicense(config({ LICENSE: text, LICENSE_PUBLIC_KEY: key }), logger, NOW);
      expect(license).toMatchObject({ plan: "team", source: "signed", licensee: "Acme Corp" });
      expect(warnings).toEqual([]);
    }
  });

  it("verifies over the payload as issued, independent of key order and with unknown fields", () => {
    const { publicPem, privateKey } = keyPair();
    const payload = { plan: "pro", customerId: "c-42", licensee: "Beta", rateLimits: { api: { maxBurst: 9, requestsPerMinute: 3 } } };
    const signature = sign(null, Buffer.from(canonicalJson(payload)), privateKey).toString("base64");
    // Same content, different key order in the document.
    const reordered = { licensee: "Beta", customerId: "c-42", rateLimits: { api: { requestsPerMinute: 3, maxBurst: 9 } }, plan: "pro" };
    const text = JSON.stringify({ signature, payload: reordered });
    const license = loadLicense(config({ LICENSE: text, LICENSE_PUBLIC_KEY: publicPem }), recordingLogger().logger, NOW);
    expect(license).toMatchObject({ plan: "pro", source: "signed", limits: { api: { requestsPerMinute: 3, maxBurst: 9 } } });
  });

  it("rejects a signature that does not verify (tampered payload or another key)", () => {
    const { publicPem, privateKey } = keyPair();
    const doc = JSON.parse(signed(teamPayload, privateKey));
    doc.payload.plan = "enterprise";
    const tampered = JSON.stringify(doc);
    expect(() => loadLicense(config({ LICENSE: tampered, LICENSE_PUBLIC_KEY: publicPem }), recordingLogger().logger, NOW))
      .toThrow(LicenseError);
    const other = keyPair();
    const foreign = signed(teamPayload, other.privateKey);
    expect(() => loadLicense(config({ LICENSE: foreign, LICENSE_PUBLIC_KEY: publicPem }), recordingLogger().logger, NOW))
      .toThrow(/does not verify/);
  });

  it("rejects an unsigned license when a public key is configured", () => {
    const { publicPem } = keyPair();
    const text = JSON.stringify({ payload: teamPayload });
    expect(() => loadLicense(config({ LICENSE: text, LICENSE_PUBLIC_KEY: publicPem }), recordingLogger().logger, NOW))
      .toThrow(/no signature/);
  });

  it("rejects a public key that is not Ed25519, and malformed license JSON", () => {
    const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
    const text = JSON.stringify({ payload: teamPayload, signature: "AAAA" });
    expect(() => loadLicense(config({ LICENSE: text, LICENSE_PUBLIC_KEY: pem }), recordingLogger().logger, NOW))
      .toThrow(/Ed25519/);
    expect(() => loadLicense(config({ LICENSE: "{not json" }), recordingLogger().logger, NOW)).toThrow(LicenseError);
    const badPlan = JSON.stringify({ payload: { licensee: "x", plan: "platinum" } });
    expect(() => loadLicense(config({ LICENSE: badPlan }), recordingLogger().logger, NOW)).toThrow(LicenseError);
  });

  it("falls back to free (with a warning) once the license has expired", () => {
    const { publicPem, privateKey } = keyPair();
    const text = signed({ ...teamPayload, expiresAt: "2026-01-15T11:59:59Z" }, privateKey);
    const { logger, warnings } = recordingLogger();
    expect(loadLicense(config({ LICENSE: text, LICENSE_PUBLIC_KEY: publicPem }), logger, NOW)).toEqual(DEFAULT_LICENSE);
    expect(warnings.join("\n")).toMatch(/expired/);
    // One second before expiry it still applies.
    const fresh = loadLicense(config({ LICENSE: text, LICENSE_PUBLIC_KEY: publicPem }), logger, NOW - 2_000);
    expect(fresh.plan).toBe("team");
  });

  it("takes rate limits and the usage limit from the license, the plan's defaults for the rest", () => {
    const payload = {
      licensee: "Acme",
      plan: "pro",
      usageLimitUsd: 250,
      rateLimits: { sync: { requestsPerMinute: 7, maxBurst: 11 }, api: { requestsPerMinute: 45, maxBurst: 90 } },
    };
    const license = loadLicense(config({ LICENSE: JSON.stringify({ payload }) }), recordingLogger().logger, NOW);
    expect(license.limits).toEqual({
      api: { requestsPerMinute: 45, maxBurst: 90 },
      sync: { requestsPerMinute: 7, maxBurst: 11 },
      async: PLAN_LIMITS.pro.async,
      usageLimitUsd: 250,
    });
  });

  it("reads LICENSE_FILE, and names a missing file in its error", () => {
    const dir = mkdtempSync(join(tmpdir(), "wf-license-"));
    try {
      const file = join(dir, "license.json");
      writeFileSync(file, JSON.stringify({ payload: { licensee: "File Co", plan: "enterprise" } }));
      expect(loadLicense(config({ LICENSE_FILE: file }), recordingLogger().logger, NOW)).toMatchObject({
        plan: "enterprise",
        licensee: "File Co",
      });
      expect(() => loadLicense(config({ LICENSE_FILE: join(dir, "nope.json") }), recordingLogger().logger, NOW))
        .toThrow(/LICENSE_FILE/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "é" } })).toBe('{"a":{"c":"é","d":[3,{"y":2,"z":1}]},"b":1}');
  });
});
