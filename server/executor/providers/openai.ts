import { isRecord, type ProviderAdapter, tokenCounts } from "./provider-adapter.ts";

/** OpenAI Chat Completions (`POST {base}/chat/completions`); also OpenAI-compatible servers. */
export const openaiAdapter: ProviderAdapter = {
  buildRequest(request, { baseUrl, key }, format) {
    const messages: Array<{ role: string; content: string }> = [];
    if (request.systemPrompt) messages.push({ role: "system", content: request.systemPrompt });
    for (const m of request.messages) messages.push({ role: m.role, content: m.content });
    const body: Record<string, unknown> = { model: request.model, messages };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (format) {
      body.response_format = {
        type: "json_schema",
        json_schema: { name: format.name, schema: format.schema, ...(format.strict !== undefined ? { strict: format.strict } : {}) },
      };
    }
    return {
      url: `${baseUrl}/chat/completions`,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    };
  },

  parseReply(body) {
    if (!isRecord(body) || !Array.isArray(body.choices) || !isRecord(body.choices[0])) {
      return { error: "the reply has no choices" };
    }
    const choice = body.choices[0];
    const message = isRecord(choice.message) ? choice.message : {};
    if (typeof message.refusal === "string" && message.refusal !== "") return { error: `the model refused: ${message.refusal}` };
    const content = textOf(message.content);
    if (content === null) return { error: `the reply has no text (finish reason ${String(choice.finish_reason ?? "unknown")})` };
    const usage = isRecord(body.usage) ? body.usage : {};
    return {
      content,
      model: typeof body.model === "string" ? body.model : undefined,
      tokens: tokenCounts(usage.prompt_tokens, usage.completion_tokens),
    };
  },
};

/** A string, or (some compatible servers) an array of `{type: "text", text}` parts. */
function textOf(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const parts = content.filter((p) => isRecord(p) && typeof p.text === "string").map((p) => (p as { text: string }).text);
  return parts.length > 0 ? parts.join("") : null;
}
