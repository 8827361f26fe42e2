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

describe("google provider", () => {
  it("posts generateContent for the model with x-goog-api-key, assistant turns as `model`", async () => {
    fakeOf().script({ content: "42", tokens: { prompt: 20, completion: 2 } });
    const reply = await gateway().models.complete(
      {
        provider: "google",
        model: "gemini-2.5-flash",
        systemPrompt: "Only numbers.",
        messages: [
          { role: "user", content: "1+1" },
          { role: "assistant", content: "2" },
          { role: "user", content: "6*7" },
        ],
        temperature: 0,
      },
      scope,
    );
    expect(reply).toEqual({ content: "42", model: "gemini-2.5-flash", tokens: { prompt: 20, completion: 2, total: 22 }, byok: false });
    const [req] = fakeOf().requests;
    expect(req.path).toBe("/google/v1beta/models/gemini-2.5-flash:generateContent");
    expect(req.headers["x-goog-api-key"]).toBe(fakeOf().keys.google);
    expect(req.path).not.toContain("key=");
    expect(req.body).toEqual({
      contents: [
        { role: "user", parts: [{ text: "1+1" }] },
        { role: "model", parts: [{ text: "2" }] },
        { role: "user", parts: [{ text: "6*7" }] },
      ],
      systemInstruction: { parts: [{ text: "Only numbers." }] },
      generationConfig: { temperature: 0 },
    });
  });

  it("accepts a model name with the API's models/ prefix", async () => {
    await gateway().models.complete({ provider: "google", model: "models/gemini-2.5-pro", messages: [{ role: "user", content: "x" }] }, scope);
    expect(fakeOf().requests[0].path).toBe("/google/v1beta/models/gemini-2.5-pro:generateContent");
  });

  it("maps responseFormat to responseMimeType + responseJsonSchema", async () => {
    const schema = { type: "object", properties: { city: { type: "string" } } };
    fakeOf().script({ content: '{"city":"Paris"}' });
    await gateway().models.complete(
      { provider: "google", model: "gemini-2.5-flash", messages: [{ role: "user", content: "x" }], responseFormat: JSON.stringify(schema) },
      scope,
    );
    expect(fakeOf().requests[0].body.generationConfig).toEqual({ responseMimeType: "application/json", responseJsonSchema: schema });
  });

  it("counts thinking tokens as completion tokens (they are billed as output)", async () => {
    fakeOf().script({ content: "ok", tokens: { prompt: 10, completion: 5, thoughts: 100 } });
    const reply = await gateway().models.complete({ provider: "google", model: "gemini-2.5-pro", messages: [{ role: "user", content: "x" }] }, scope);
    expect(reply.tokens).toEqual({ prompt: 10, completion: 105, total: 115 });
  });

  it("fails clearly when the prompt is blocked or the candidate has no text", async () => {
    fakeOf().script(
      { body: { promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 3 } } },
      { body: { candidates: [{ finishReason: "MAX_TOKENS", content: { role: "model" } }] } },
    );
    const { models } = gateway();
    const request = { provider: "google" as const, model: "gemini-2.5-flash", messages: [{ role: "user" as const, content: "x" }] };
    await expect(models.complete(request, scope)).rejects.toThrow("Provider google: the prompt was blocked (SAFETY)");
    await expect(models.complete(request, scope)).rejects.toThrow("Provider google: the reply has no text (finish reason MAX_TOKENS)");
  });

  it("retries 429 RESOURCE_EXHAUSTED honouring Retry-After, then answers", async () => {
    fakeOf().script({ status: 429, error: "Quota exceeded", headers: { "retry-after": "7" } }, { content: "finally" });
    const { models, sleeps } = gateway();
    const reply = await models.complete({ provider: "google", model: "gemini-2.5-flash", messages: [{ role: "user", content: "x" }] }, scope);
    expect(reply.content).toBe("finally");
    expect(sleeps).toEqual([7000]);
    expect(fakeOf().requests).toHaveLength(2);
  });
});
