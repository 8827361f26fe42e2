import type { JsonSchemaFormat } from "./response-format.ts";
import type { ModelRequest, ModelTokens } from "./types.ts";

/** The HTTP request one provider API expects (always a JSON POST). */
export type ProviderHttpRequest = { url: string; headers: Record<string, string>; body: string };

/** What a 2xx answer said: the text and usage, or why it carries no usable answer. */
export type ParsedReply = { content: string; model?: string; tokens: ModelTokens } | { error: string };

/** How one provider's API is spoken: request shape out, reply shape in. No I/O. */
export type ProviderAdapter = {
  buildRequest(
    request: ModelRequest,
    target: { baseUrl: string; key: string },
    format: JsonSchemaFormat | null,
  ): ProviderHttpRequest;
  parseReply(body: unknown): ParsedReply;
};

/** Token counts as the run's cost trusts them: non-negative integers, total = prompt + completion. */
export function tokenCounts(prompt: unknown, completion: unknown): ModelTokens {
  const p = count(prompt);
  const c = count(completion);
  return { prompt: p, completion: c, total: p + c };
}

function count(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
