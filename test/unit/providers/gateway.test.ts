import { describe, expect, it } from "vitest";
import type { Config } from "../../../server/config.ts";
import { createModelGateway, type ModelGatewayDeps } from "../../../server/executor/providers/create-model-gateway.ts";
import { resolveProviderKey } from "../../../server/executor/providers/resolve-provider-key.ts";
import type { ModelRequest } from "../../../server/executor/providers/types.ts";
import { createGuardedFetch, OutboundError } from "../../../server/security/create-guarded-fetch.ts";
import { useFakeProvider } from "../../helpers/fake-provider.ts";
import { closedPort } from "../../helpers/receiver.ts";

const fakeOf = useFakeProvider();
const fetch = createGuardedFetch({ allowPrivateNetwork: true });
const scope = { workspaceId: "ws_1" };
const ask = (provider: ModelRequest["provider"], model = "m"): ModelRequest => ({ provider, model, messages: [{ role: "user", content: "hi" }] });

function gateway(overrides: Partial<ModelGatewayDeps> = {}) {
  const sleeps: number[] = [];
  const logs: string[] = [];
  const record = (msg: string, fields?: Record<string, unknown>) => logs.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  const models = createModelGateway({
    fetch,
    config: { modelProviders: fakeOf().config },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    logger: { debug: record, info: record, warn: record, error: record },
    ...overrides,
  });
  return { models, sleeps, logs };
}

function withoutKeys(config: Config["modelProviders"]): Config["modelProviders"] {
  return {
    openai: { baseUrl: config.openai.baseUrl },
    anthropic: { baseUrl: config.anthropic.baseUrl },
    google: { baseUrl: config.google.baseUrl },
  };
}

describe("model gateway: keys", () => {
  it("fails without calling out when the provider has no key, naming the variable to set", async () => {
    const { models } = gateway({ config: { modelProviders: withoutKeys(fakeOf().config) } });
    await expect(models.complete(ask("openai"), scope)).rejects.toThrow("No API key for provider openai: set OPENAI_API_KEY");
    await expect(models.complete(ask("anthropic"), scope)).rejects.toThrow("No API key for provider anthropic: set ANTHROPIC_API_KEY");
    await expect(models.complete(ask("google"), scope)).rejects.toThrow("No API key for provider google: set GOOGLE_API_KEY");
    expect(fakeOf().requests).toEqual([]);
  });

  it("resolveProviderKey answers the platform key from config, not BYOK", async () => {
    const config = { modelProviders: fakeOf().config };
    expect(await resolveProviderKey({ workspaceId: "ws_1", provider: "anthropic" }, { config })).toEqual({ key: fakeOf().keys.anthropic, byok: false });
    expect(await resolveProviderKey({ workspaceId: "ws_1", provider: "openai" }, { config: { modelProviders: withoutKeys(fakeOf().config) } })).toBeNull();
  });

  it("uses the key the resolver picks for the workspace and reports BYOK", async () => {
    const asked: unknown[] = [];
    const { models } = gateway({
      resolveProviderKey: async (s) => {
        asked.push(s);
        return { key: fakeOf().keys.openai, byok: true };
      },
      config: { modelProviders: withoutKeys(fakeOf().config) },
    });
    const reply = await models.complete(ask("openai"), { workspaceId: "ws_byok" });
    expect(reply.byok).toBe(true);
    expect(asked).toEqual([{ workspaceId: "ws_byok", provider: "openai" }]);
  });

  it("never echoes the key: the provider's 401 message quoting it is redacted, and logs do not carry it", async () => {
    const wrongKey = "sk-wrong-key-abcdef123456";
    const { models, logs } = gateway({ resolveProviderKey: async () => ({ key: wrongKey, byok: false }) });
    const error = await models.complete(ask("openai"), scope).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("Provider openai answered HTTP 401 Unauthorized: Incorrect API key provided: [redacted]");
    expect(fakeOf().requests).toHaveLength(1); // 401 is not retried
    expect(fakeOf().requests[0].headers.authorization).toBe(`Bearer ${wrongKey}`);
    expect(logs.join("\n")).not.toContain(wrongKey);
  });
});

describe("model gateway: retries and failures", () => {
  it("retries 5xx with backoff and succeeds, logging each retry without secrets", async () => {
    fakeOf().script({ status: 500, error: "boom" }, { status: 503, error: "busy" }, { content: "ok" });
    const { models, sleeps, logs } = gateway();
    const reply = await models.complete(ask("anthropic", "claude-haiku-4-5"), scope);
    expect(reply.content).toBe("ok");
    expect(sleeps).toEqual([500, 1000]);
    expect(logs).toEqual([
      'model call retry {"provider":"anthropic","model":"claude-haiku-4-5","attempt":1,"delayMs":500,"reason":"HTTP 500"}',
      'model call retry {"provider":"anthropic","model":"claude-haiku-4-5","attempt":2,"delayMs":1000,"reason":"HTTP 503"}',
    ]);
    expect(logs.join("\n")).not.toContain(fakeOf().keys.anthropic);
  });

  it("retries a 429 twice at most (3 attempts) and then reports it", async () => {
    fakeOf().script(...Array.from({ length: 5 }, () => ({ status: 429, error: "Rate limit reached for gpt-4o" })));
    const { models, sleeps } = gateway();
    await expect(models.complete(ask("openai", "gpt-4o"), scope)).rejects.toThrow(
      "Provider openai answered HTTP 429 Too Many Requests (after 3 attempts): Rate limit reached for gpt-4o",
    );
    expect(fakeOf().requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  it("retries connection failures, then says the provider could not be reached", async () => {
    const port = await closedPort();
    const config = { modelProviders: { ...fakeOf().config, openai: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "k-123456" } } };
    const { models, sleeps } = gateway({ config });
    await expect(models.complete(ask("openai"), scope)).rejects.toThrow("Provider openai could not be reached (after 3 attempts): Connection refused");
    expect(sleeps).toEqual([500, 1000]);
  });

  it("retries a dropped connection and then answers", async () => {
    fakeOf().script({ drop: true }, { content: "back" });
    const { models, sleeps } = gateway();
    expect((await models.complete(ask("google", "gemini-2.5-flash"), scope)).content).toBe("back");
    expect(sleeps).toEqual([500]);
  });

  it("does not retry a timed-out call (it already waited the whole deadline)", async () => {
    let calls = 0;
    const { models, sleeps } = gateway({
      fetch: async () => {
        calls++;
        throw new OutboundError("timeout", "Request timed out after 120000 ms");
      },
    });
    await expect(models.complete(ask("openai"), scope)).rejects.toThrow("Provider openai could not be reached: Request timed out after 120000 ms");
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("passes the request's timeout to the fetch, 120 s by default", async () => {
    const seen: Array<number | undefined> = [];
    const { models } = gateway({
      fetch: async (url, init) => {
        seen.push(init?.timeoutMs);
        return fetch(url, init);
      },
    });
    await models.complete(ask("openai"), scope);
    await models.complete({ ...ask("openai"), timeoutMs: 5_000 }, scope);
    expect(seen).toEqual([120_000, 5_000]);
  });

  it("fails on a 2xx reply that is not JSON or not the provider's shape", async () => {
    fakeOf().script({ body: "<html>proxy</html>" }, { body: { unexpected: true } });
    const { models } = gateway();
    await expect(models.complete(ask("openai"), scope)).rejects.toThrow("Provider openai sent a reply that is not JSON (HTTP 200)");
    await expect(models.complete(ask("openai"), scope)).rejects.toThrow("Provider openai: the reply has no choices");
  });

  it("rejects an unknown provider, an empty model and an unreadable responseFormat before calling out", async () => {
    const { models } = gateway();
    await expect(models.complete({ ...ask("openai"), provider: "mistral" as "openai" }, scope)).rejects.toThrow('Unknown model provider "mistral"');
    await expect(models.complete(ask("openai", " "), scope)).rejects.toThrow("A model name is required");
    await expect(models.complete({ ...ask("openai"), responseFormat: "{not json" }, scope)).rejects.toThrow("responseFormat must be a JSON schema object");
    expect(fakeOf().requests).toEqual([]);
  });

  it("refuses a private provider address unless the installation allows it", async () => {
    const { models } = gateway({ fetch: createGuardedFetch({ allowPrivateNetwork: false }) });
    await expect(models.complete(ask("openai"), scope)).rejects.toThrow(
      "Provider openai could not be reached: Requests to private or local addresses are not allowed (127.0.0.1)",
    );
  });
});
