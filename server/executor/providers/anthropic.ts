import { isRecord, type ProviderAdapter, tokenCounts } from "./provider-adapter.ts";

export const ANTHROPIC_VERSION = "2023-06-01";
/** The Messages API requires a cap on the reply; this one fits every current Claude model. */
export const ANTHROPIC_MAX_TOKENS = 8192;

/** Anthropic Messages (`POST {base}/v1/messages`). */
export const anthropicAdapter: ProviderAdapter = {
  buildRequest(request, { baseUrl, key }, format) {
    const body: Record<string, unknown> = {
      model: request.model,
      max_tokens: ANTHROPIC_MAX_TOKENS,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    if (request.systemPrompt) body.system = request.systemPrompt;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (format) body.output_config = { format: { type: "json_schema", schema: format.schema } };
    return {
      url: `${baseUrl}/v1/messages`,
      headers: { "x-api-key": key, "anthropic-version": ANTHROPIC_VERSION, "content-type": "application/json" },
      body: JSON.stringify(body),
    };
  },

  parseReply(body) {
    if (!isRecord(body) || !Array.isArray(body.content)) return { error: "the reply has no content" };
    if (body.stop_reason === "refusal") return { error: "the model refused to answer" };
    const content = body.content
      .filter((block) => isRecord(block) && block.type === "text" && typeof block.text === "string")
      .map((block) => (block as { text: string }).text)
      .join("");
    const usage = isRecord(body.usage) ? body.usage : {};
    return {
      content,
      model: typeof body.model === "string" ? body.model : undefined,
      tokens: tokenCounts(usage.input_tokens, usage.output_tokens),
    };
  },
};
