import type { ChatMessage } from "../types.ts";

export const MODEL_PROVIDERS = ["openai", "anthropic", "google"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export function isModelProvider(value: unknown): value is ModelProvider {
  return typeof value === "string" && (MODEL_PROVIDERS as readonly string[]).includes(value);
}

/** One chat completion asked of a provider; the same shape for every provider. */
export type ModelRequest = {
  provider: ModelProvider;
  model: string;
  systemPrompt?: string;
  /** Oldest first; the last one is normally the user's prompt. */
  messages: ChatMessage[];
  temperature?: number;
  /** A JSON schema the reply must follow (see response-format.ts for the accepted forms). */
  responseFormat?: unknown;
  timeoutMs?: number;
};

export type ModelTokens = { prompt: number; completion: number; total: number };

export type ModelReply = {
  content: string;
  /** The model that answered, as the provider names it (may be a dated snapshot of the one asked for). */
  model: string;
  tokens: ModelTokens;
  /** True when the workspace's own key paid for the call (no model cost is charged). */
  byok: boolean;
};

/** The one way the executor talks to model providers. Throws an Error with a readable message on failure. */
export type ModelGateway = {
  complete(request: ModelRequest, scope: { workspaceId: string }): Promise<ModelReply>;
};
