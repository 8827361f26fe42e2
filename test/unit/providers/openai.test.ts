import { describe, expect, it } from "vitest";
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

describe("openai provider", () => {
  it("posts a chat completion with the bearer key, system prompt first, then the turns", async () => {
    fakeOf().script({ content: "Hello there", tokens: { prompt: 31, completion: 9 } });
    const reply = await gateway().models.complete(
      {
        provider: "openai",
        model: "gpt-4o",
        systemPrompt: "Be brief.",
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Hello" },
          { role: "user", content: "Greet me" },
        ],
        temperature: 0.3,
      },
      scope,
    );
    expect(reply).toEqual({ content: "Hello there", model: "gpt-4o", tokens: { prompt: 31, completion: 9, total: 40 }, byok: false });
    const [req] = fakeOf().requests;
    expect(req.path).toBe("/openai/v1/chat/completions");
    expect(req.method).toBe("POST");
    expect(req.headers.authorization).toBe(`Bearer ${fakeOf().keys.openai}`);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.body).toEqual({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        { role: "user", content: "Greet me" },
      ],
      temperature: 0.3,
    });
  });

  it("leaves out temperature and the system message when not given", async () => {
    await gateway().models.complete({ provider: "openai", model: "gpt-4o-mini", messages: [{ role: "user", content: "x" }] }, scope);
    expect(fakeOf().requests[0].body).toEqual({ model: "gpt-4o-mini", messages: [{ role: "user", content: "x" }] });
  });

  it("maps responseFormat to response_format json_schema", async () => {
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    fakeOf().script({ content: '{"n":1}' });
    await gateway().models.complete({ provider: "openai", model: "gpt-4o", messages: [{ role: "user", content: "x" }], responseFormat: schema }, scope);
    expect(fakeOf().requests[0].body.response_format).toEqual({ type: "json_schema", json_schema: { name: "response", schema } });
  });

  it("reports the model the provider names (a dated snapshot)", async () => {
    fakeOf().script({ model: "gpt-4o-2024-08-06" });
    const reply = await gateway().models.complete({ provider: "openai", model: "gpt-4o", messages: [{ role: "user", content: "x" }] }, scope);
    expect(reply.model).toBe("gpt-4o-2024-08-06");
  });

  it("fails with the provider's message on a 400, without retrying", async () => {
    fakeOf().script({ status: 400, error: "Unsupported value: 'temperature'" });
    const { models, sleeps } = gateway();
    await expect(models.complete({ provider: "openai", model: "o3", messages: [{ role: "user", content: "x" }] }, scope)).rejects.toThrow(
      "Provider openai answered HTTP 400 Bad Request: Unsupported value: 'temperature'",
    );
    expect(fakeOf().requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("fails on a refusal", async () => {
    fakeOf().script({
      body: { model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: null, refusal: "I can't help with that." } }] },
    });
    await expect(gateway().models.complete({ provider: "openai", model: "gpt-4o", messages: [{ role: "user", content: "x" }] }, scope)).rejects.toThrow(
      "Provider openai: the model refused: I can't help with that.",
    );
  });

  it("reads a reply without usage as zero tokens", async () => {
    fakeOf().script({ body: { model: "local", choices: [{ index: 0, message: { role: "assistant", content: "hi" } }] } });
    const reply = await gateway().models.complete({ provider: "openai", model: "local", messages: [{ role: "user", content: "x" }] }, scope);
    expect(reply).toMatchObject({ content: "hi", tokens: { prompt: 0, completion: 0, total: 0 } });
  });
});
