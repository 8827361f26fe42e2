import { isRecord, type ProviderAdapter, tokenCounts } from "./provider-adapter.ts";

/** Gemini API (`POST {base}/v1beta/models/{model}:generateContent`). */
export const googleAdapter: ProviderAdapter = {
  buildRequest(request, { baseUrl, key }, format) {
    const body: Record<string, unknown> = {
      contents: request.messages.map((m) => ({ role: m.role === "assistant" ? "model" : "user", parts: [{ text: m.content }] })),
    };
    if (request.systemPrompt) body.systemInstruction = { parts: [{ text: request.systemPrompt }] };
    const generationConfig: Record<string, unknown> = {};
    if (request.temperature !== undefined) generationConfig.temperature = request.temperature;
    if (format) {
      generationConfig.responseMimeType = "application/json";
      generationConfig.responseJsonSchema = format.schema;
    }
    if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
    // Names copied from the API's model list carry a "models/" prefix; the path adds its own.
    const model = encodeURIComponent(request.model.replace(/^models\//, ""));
    return {
      url: `${baseUrl}/v1beta/models/${model}:generateContent`,
      headers: { "x-goog-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
    };
  },

  parseReply(body) {
    if (!isRecord(body)) return { error: "the reply is not an object" };
    const feedback = isRecord(body.promptFeedback) ? body.promptFeedback : {};
    if (typeof feedback.blockReason === "string") return { error: `the prompt was blocked (${feedback.blockReason})` };
    const candidate = Array.isArray(body.candidates) && isRecord(body.candidates[0]) ? body.candidates[0] : null;
    if (!candidate) return { error: "the reply has no candidates" };
    const parts = isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    // Thought summaries are not the answer.
    const texts = parts.filter((p) => isRecord(p) && typeof p.text === "string" && p.thought !== true).map((p) => (p as { text: string }).text);
    if (texts.length === 0) return { error: `the reply has no text (finish reason ${String(candidate.finishReason ?? "unknown")})` };
    const usage = isRecord(body.usageMetadata) ? body.usageMetadata : {};
    // Thinking tokens are billed as output tokens.
    const completion = num(usage.candidatesTokenCount) + num(usage.thoughtsTokenCount);
    return {
      content: texts.join(""),
      model: typeof body.modelVersion === "string" ? body.modelVersion : undefined,
      tokens: tokenCounts(usage.promptTokenCount, completion),
    };
  },
};

function num(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
}
