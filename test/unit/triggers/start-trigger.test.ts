import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startBlock } from "../../../server/executor/blocks/start.ts";
import { createSecretBox } from "../../../server/security/secret-box.ts";
import { maskStartSecret, sealStartSecret } from "../../../server/triggers/start-secret.ts";
import { startTrigger } from "../../../server/triggers/start-trigger.ts";
import { answerText } from "../../../server/triggers/chat/answer-text.ts";
import { splitAnswer, sseEvent } from "../../../server/triggers/chat/sse.ts";

const stateWith = (params: Record<string, unknown>) => ({ blocks: { s: { type: "start", name: "Start", params } } });

describe("start block params validation", () => {
  const check = (params: Record<string, unknown>) => startBlock.validate(params);

  it("accepts each trigger with valid params", () => {
    expect(check({})).toEqual([]);
    expect(check({ trigger: "api" })).toEqual([]);
    expect(check({ trigger: "webhook", path: "a" })).toEqual([]);
    expect(check({ trigger: "webhook", path: "Orders/paid_v2-x", secret: "s".repeat(16), signature: "hmac-sha256" })).toEqual([]);
    expect(check({ trigger: "chat", identifier: "support-bot-2" })).toEqual([]);
    expect(check({ trigger: "schedule", cron: "*/5 * * * *", timezone: "Europe/Berlin" })).toEqual([]);
  });

  it("names what is wrong", () => {
    expect(check({ trigger: "email" })[0]).toContain("trigger must be one of api, webhook, schedule, chat");
    for (const path of [undefined, "", "/lead", "-lead", "a/../b", "a b", "é", "a".repeat(201), 5]) {
      expect(check({ trigger: "webhook", path })[0], String(path)).toMatch(/^path must be/);
    }
    expect(check({ trigger: "webhook", path: "a".repeat(200) })).toEqual([]);
    expect(check({ trigger: "webhook", path: "a", secret: "s".repeat(15) })).toEqual(["secret must be a string of at least 16 characters"]);
    expect(check({ trigger: "webhook", path: "a", secret: 1234567890123456 })).toHaveLength(1);
    expect(check({ trigger: "webhook", path: "a", signature: "hmac-sha256" })).toEqual(['signature "hmac-sha256" needs a secret to sign with']);
    expect(check({ trigger: "webhook", path: "a", secret: "s".repeat(16), signature: "md5" })[0]).toContain('signature must be "hmac-sha256"');
    for (const identifier of [undefined, "", "Upper", "-lead", "a_b", "a".repeat(65)]) {
      expect(check({ trigger: "chat", identifier })[0], String(identifier)).toMatch(/^identifier must be/);
    }
    expect(check({ trigger: "schedule", cron: "not a cron" }).length).toBeGreaterThan(0);
    expect(check({ trigger: "schedule", cron: "0 * * * *", timezone: "Mars/Olympus" }).length).toBeGreaterThan(0);
  });

  it("never shows the secret in messages or in its trace", async () => {
    const secret = "do-not-show-me-1";
    expect(check({ trigger: "webhook", path: "/bad", secret }).join(" ")).not.toContain(secret);
    const outcome = await startBlock.run({ trigger: "webhook", path: "a", secret }, { input: { x: 1 } } as never);
    expect(outcome.output).toEqual({ x: 1 });
    expect(JSON.stringify(outcome.traceInput)).not.toContain(secret);
  });
});

describe("startTrigger", () => {
  it("reads the registration from the start block", () => {
    expect(startTrigger(stateWith({}))).toEqual({ kind: "api" });
    expect(startTrigger(stateWith({ trigger: "webhook", path: "p", secret: "s".repeat(16), signature: "hmac-sha256" }))).toEqual({
      kind: "webhook",
      path: "p",
      secret: "s".repeat(16),
      signature: "hmac-sha256",
    });
    expect(startTrigger(stateWith({ trigger: "chat", identifier: "bot" }))).toEqual({ kind: "chat", identifier: "bot" });
    expect(startTrigger(stateWith({ trigger: "schedule", cron: "0 9 * * 1" }))).toEqual({ kind: "schedule", cron: "0 9 * * 1", timezone: "UTC" });
    expect(startTrigger(stateWith({ trigger: "webhook", path: "../x" }))).toEqual({ kind: "api" });
    expect(startTrigger({ blocks: {} })).toEqual({ kind: "api" });
  });
});

describe("sealStartSecret / maskStartSecret", () => {
  const box = createSecretBox(randomBytes(32));
  const secret = "plain-secret-0123456789";

  it("seals a plain secret, keeps the stored one for ******** or the same secret, and masks", () => {
    const sealed = sealStartSecret(box, stateWith({ trigger: "webhook", path: "p", secret }), null);
    const stored = sealed.blocks.s.params.secret as string;
    expect(stored).toMatch(/^v1:/);
    expect(box.decrypt(stored)).toBe(secret);
    const json = JSON.stringify(sealed);
    expect(sealStartSecret(box, stateWith({ secret: "********" }), json).blocks.s.params.secret).toBe(stored);
    expect(sealStartSecret(box, stateWith({ secret }), json).blocks.s.params.secret).toBe(stored);
    const other = sealStartSecret(box, stateWith({ secret: `${secret}!` }), json).blocks.s.params.secret as string;
    expect(other).not.toBe(stored);
    expect(box.decrypt(other)).toBe(`${secret}!`);
    expect(maskStartSecret(sealed).blocks.s.params).toEqual({ trigger: "webhook", path: "p", secret: "********" });
    expect(() => sealStartSecret(box, stateWith({ secret: "********" }), null)).toThrow(/keeps the stored secret/);
  });

  it("leaves a short secret for validation to report and states without a secret untouched", () => {
    const short = stateWith({ secret: "short" });
    expect(sealStartSecret(box, short, null)).toBe(short);
    const none = stateWith({ trigger: "api" });
    expect(sealStartSecret(box, none, null)).toBe(none);
    expect(maskStartSecret(none)).toBe(none);
  });
});

describe("chat answer text and events", () => {
  it("answers with the output text, its content, or its JSON", () => {
    expect(answerText("hi")).toBe("hi");
    expect(answerText({ content: "from agent", model: "m" })).toBe("from agent");
    expect(answerText({ a: 1 })).toBe('{"a":1}');
    expect(answerText({ content: { nested: true } })).toBe('{"content":{"nested":true}}');
    expect(answerText(null)).toBe("");
    expect(answerText(42)).toBe("42");
  });

  it("splits an answer into pieces that join back exactly, frames events as one JSON line", () => {
    for (const text of ["", "one", "  two words  ", "line\nbreak and\ttabs", "x".repeat(600)]) {
      const pieces = splitAnswer(text);
      expect(pieces.join("")).toBe(text);
      expect(pieces.every((p) => p.length <= 256)).toBe(true);
    }
    expect(splitAnswer("a b c")).toEqual(["a ", "b ", "c"]);
    expect(sseEvent("message", { content: "two\nlines" })).toBe('event: message\ndata: {"content":"two\\nlines"}\n\n');
  });
});
