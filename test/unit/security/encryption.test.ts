import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../../server/config.ts";
import { AppError } from "../../../server/errors.ts";
import type { Logger } from "../../../server/logger.ts";
import {
  DecryptionError,
  decryptSecret,
  encryptSecret,
  isSealedSecret,
  parseEncryptionKey,
} from "../../../server/security/encryption.ts";
import { resolveEncryptionKey } from "../../../server/security/resolve-encryption-key.ts";
import { createSecretBox } from "../../../server/security/secret-box.ts";

const key = randomBytes(32);

describe("encryptSecret / decryptSecret (AES-256-GCM)", () => {
  it("round-trips, with a fresh IV each time, in the v1:<iv>:<tag>:<ciphertext> base64url form", () => {
    const secret = "webhook-secret-0123456789 ünïcødé";
    const a = encryptSecret(secret, key);
    const b = encryptSecret(secret, key);
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("webhook");
    expect(isSealedSecret(a)).toBe(true);
    expect(decryptSecret(a, key)).toBe(secret);
    expect(decryptSecret(b, key)).toBe(secret);
    expect(decryptSecret(encryptSecret("", key), key)).toBe("");
  });

  it("detects tampering with the ciphertext, the tag or the IV", () => {
    const sealed = encryptSecret("a secret worth keeping", key);
    const [v, iv, tag, data] = sealed.split(":");
    const flip = (part: string) => {
      const bytes = Buffer.from(part, "base64url");
      bytes[0] ^= 1;
      return bytes.toString("base64url");
    };
    for (const forged of [
      [v, iv, tag, flip(data)],
      [v, iv, flip(tag), data],
      [v, flip(iv), tag, data],
      [v, iv, tag, data.slice(0, -2)],
    ]) {
      expect(() => decryptSecret(forged.join(":"), key)).toThrow(DecryptionError);
    }
  });

  it("refuses a wrong key and malformed input with DecryptionError", () => {
    const sealed = encryptSecret("a secret worth keeping", key);
    expect(() => decryptSecret(sealed, randomBytes(32))).toThrow(DecryptionError);
    for (const bad of ["", "plain text", "v2:a:b:c", sealed.replace("v1:", "v0:"), `${sealed}:extra`]) {
      expect(() => decryptSecret(bad, key)).toThrow(DecryptionError);
    }
    expect(() => encryptSecret("x", randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe("parseEncryptionKey", () => {
  it("reads 32 bytes as 64 hex characters or base64 (standard or URL alphabet, padded or not)", () => {
    expect(parseEncryptionKey(key.toString("hex"))).toEqual(key);
    expect(parseEncryptionKey(key.toString("hex").toUpperCase())).toEqual(key);
    expect(parseEncryptionKey(key.toString("base64"))).toEqual(key);
    expect(parseEncryptionKey(key.toString("base64url"))).toEqual(key);
    expect(parseEncryptionKey(` ${key.toString("hex")}\n`)).toEqual(key);
  });

  it("refuses other lengths and forms", () => {
    for (const bad of ["", "short", randomBytes(16).toString("hex"), randomBytes(31).toString("base64"), "z".repeat(64)]) {
      expect(() => parseEncryptionKey(bad)).toThrow(/64 hex characters or as base64/);
    }
  });
});

describe("resolveEncryptionKey", () => {
  const dirs: string[] = [];
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (msg) => void warnings.push(msg), error() {} };
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "wf-key-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    warnings.length = 0;
  });

  it("uses ENCRYPTION_KEY when set, and stops the start with a ConfigError when it is malformed", () => {
    const dir = dataDir();
    const resolved = resolveEncryptionKey({ encryptionKey: key.toString("hex"), databaseUrl: `file:${dir}/app.db`, dataDir: dir }, logger);
    expect(resolved).toEqual({ key, origin: "env" });
    expect(() => resolveEncryptionKey({ encryptionKey: "nope", databaseUrl: `file:${dir}/app.db`, dataDir: dir }, logger)).toThrow(
      ConfigError,
    );
    expect(warnings).toEqual([]);
  });

  it("on the embedded database generates <DATA_DIR>/encryption.key (0600) once, warning once, then reuses it", () => {
    const dir = dataDir();
    const config = { databaseUrl: `file:${dir}/app.db`, dataDir: dir };
    const first = resolveEncryptionKey(config, logger);
    expect(first.origin).toBe("generated");
    const file = join(dir, "encryption.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseEncryptionKey(readFileSync(file, "utf8"))).toEqual(first.key);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain((first.key as Buffer).toString("hex"));

    const again = resolveEncryptionKey(config, logger);
    expect(again).toEqual({ key: first.key, origin: "file" });
    expect(warnings).toHaveLength(1);
  });

  it("refuses a corrupt key file instead of replacing it", () => {
    const dir = dataDir();
    writeFileSync(join(dir, "encryption.key"), "garbage\n");
    expect(() => resolveEncryptionKey({ databaseUrl: `file:${dir}/app.db`, dataDir: dir }, logger)).toThrow(ConfigError);
    expect(readFileSync(join(dir, "encryption.key"), "utf8")).toBe("garbage\n");
  });

  it("has no key on a shared database without ENCRYPTION_KEY: the box refuses with 503 and says why", () => {
    const resolved = resolveEncryptionKey({ databaseUrl: "libsql://db.example.com", dataDir: dataDir() }, logger);
    expect(resolved).toEqual({ key: null, origin: "none" });
    expect(warnings).toHaveLength(1);
    const box = createSecretBox(resolved.key);
    let thrown: unknown;
    try {
      box.encrypt("x".repeat(16));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ status: 503, code: "ENCRYPTION_KEY_MISSING" });
  });

  it("gives :memory: a key for the life of the process", () => {
    const resolved = resolveEncryptionKey({ databaseUrl: ":memory:", dataDir: dataDir() }, logger);
    expect(resolved.origin).toBe("ephemeral");
    const box = createSecretBox(resolved.key);
    expect(box.decrypt(box.encrypt("in memory only"))).toBe("in memory only");
  });
});
