import { describe, expect, it } from "vitest";
import { ANTHROPIC_MAX_TOKENS } from "../../../server/executor/providers/anthropic.ts";
import { createModelGateway } from "../../../server/executor/providers/create-model-gateway.ts";
import { createGuardedFetch } from "../../../server/security/create-guarded-fetch.ts";
import { useFakeProvider } from "../../helpers/fake-provider.ts";

const fakeOf = useFakeProvider();
const fetch = createGuardedFetch({ allowPrivateNetwork: true });
const scope = { workspaceId: "ws_1" };

function gateway() {
  const sleeps: number[] = [];
  const models = createModelGateway({
    fetch,
    config: { modelProviders: fakeOf().config },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
  });
  return { models, sleeps };
}

describe("anthropic provider", () => {
  it("posts to /v1/messages with x-api-key and anthropic-version, the system prompt apart", async () => {
    fakeOf().script({ content: "Bonjour", tokens: { prompt: 40, completion: 3 } });
    const reply = await gateway().models.complete(
      {
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        systemPrompt: "Answer in French.",
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Salut" },
          { role: "user", content: "Hello" },
        ],
        temperature: 0.5,
      },
      scope,
    );
    expect(reply).toEqual({ content: "Bonjour", model: "claude-sonnet-4-5", tokens: { prompt: 40, completion: 3, total: 43 }, byok: false });
    const [req] = fakeOf().requests;
    expect(req.path).toBe("/anthropic/v1/messages");
    expect(req.headers["x-api-key"]).toBe(fakeOf().keys.anthropic);
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: ANTHROPIC_MAX_TOKENS,
      system: "Answer in French.",
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Salut" },
        { role: "user", content: "Hello" },
      ],
      temperature: 0.5,
    });
  });

  it("maps responseFormat to output_config.format json_schema", async () => {
    const schema = { type: "object", properties: { ok: { type: "boolean" } } };
    fakeOf().script({ content: '{"ok":true}' });
    await gateway().models.complete(
      { provider: "anthropic", model: "claude-haiku-4-5", messages: [{ role: "user", content: "x" }], responseFormat: { name: "check", schema } },
      scope,
    );
    expect(fakeOf().requests[0].body.output_config).toEqual({ format: { type: "json_schema", schema } });
  });

  it("joins the text blocks of the reply and ignores others", async () => {
    fakeOf().script({
      body: {
        type: "message",
        model: "claude-sonnet-4-5-20250929",
        content: [
          { type: "thinking", thinking: "hmm" },
          { type: "text", text: "Part one. " },
          { type: "text", text: "Part two." },
        ],
        stop_reason: "end_turn",
        usage: { input_tokens: 5, output_tokens: 120 },
      },
    });
    const reply = await gateway().models.complete({ provider: "anthropic", model: "claude-sonnet-4-5", messages: [{ role: "user", content: "x" }] }, scope);
    expect(reply).toMatchObject({ content: "Part one. Part two.", model: "claude-sonnet-4-5-20250929", tokens: { prompt: 5, completion: 120, total: 125 } });
  });

  it("retries an overloaded (529) answer, then fails with the provider's message", async () => {
    fakeOf().script(
      { status: 529, error: "Overloaded" },
      { status: 529, error: "Overloaded" },
      { status: 529, error: "Overloaded" },
    );
    const { models, sleeps } = gateway();
    await expect(models.complete({ provider: "anthropic", model: "claude-opus-4-5", messages: [{ role: "user", content: "x" }] }, scope)).rejects.toThrow(
      "Provider anthropic answered HTTP 529 (after 3 attempts): Overloaded",
    );
    expect(fakeOf().requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
  });
});
