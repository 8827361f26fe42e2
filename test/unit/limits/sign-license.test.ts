import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../server/config.ts";
import { loadLicense } from "../../../server/limits/license.ts";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe("scripts/sign-license.ts", () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-sign-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (...args: string[]) =>
    execFileSync(process.execPath, ["--import", "tsx", "scripts/sign-license.ts", ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });

  it("produces a license the server verifies with the matching public key", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const keyFile = join(dir, "private.pem");
    const payloadFile = join(dir, "payload.json");
    writeFileSync(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }));
    writeFileSync(payloadFile, JSON.stringify({ plan: "enterprise", licensee: "Signed Inc", usageLimitUsd: 9000 }));
    const text = run(payloadFile, keyFile);
    const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
    const license = loadLicense(loadConfig({ LICENSE: text, LICENSE_PUBLIC_KEY: pem }), silent, Date.now());
    expect(license).toMatchObject({ plan: "enterprise", source: "signed", limits: { usageLimitUsd: 9000 } });
  });

  it("refuses an invalid payload", () => {
    const { privateKey } = generateKeyPairSync("ed25519");
    const keyFile = join(dir, "private2.pem");
    const payloadFile = join(dir, "bad.json");
    writeFileSync(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }));
    writeFileSync(payloadFile, JSON.stringify({ plan: "gold" }));
    expect(() => run(payloadFile, keyFile)).toThrow(/not a valid license payload/);
  });
});
