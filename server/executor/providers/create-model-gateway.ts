import { STATUS_CODES } from "node:http";
import { type Clock, systemClock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import { OutboundError } from "../../security/create-guarded-fetch.ts";
import type { GuardedFetch, GuardedResponse } from "../../security/guarded-fetch.ts";
import { type AttemptResult, retryDelay } from "../blocks/api-retry.ts";
import { anthropicAdapter } from "./anthropic.ts";
import { googleAdapter } from "./google.ts";
import { openaiAdapter } from "./openai.ts";
import { isRecord, type ProviderAdapter } from "./provider-adapter.ts";
import { PROVIDER_KEY_ENV, type ResolveProviderKey, resolveProviderKey } from "./resolve-provider-key.ts";
import { toJsonSchemaFormat } from "./response-format.ts";
import { isModelProvider, type ModelGateway, type ModelProvider, type ModelReply, type ModelRequest } from "./types.ts";

/** Retries after the first attempt, for answers that may pass (429, 5xx, connection failures). */
export const MODEL_CALL_RETRIES = 2;
/** Models can take long to answer; a deadline per attempt. */
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;
const MAX_ERROR_MESSAGE = 500;

const ADAPTERS: Record<ModelProvider, ProviderAdapter> = {
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  google: googleAdapter,
};

export type ModelGatewayDeps = {
  fetch: GuardedFetch;
  config: Pick<Config, "modelProviders">;
  /** Which key a workspace's call uses; default: resolveProviderKey with this config. */
  resolveProviderKey?: ResolveProviderKey;
  /** Waits between retries (tests pass a fake that returns at once). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  clock?: Clock;
  logger?: Logger;
  retries?: number;
};

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The model gateway: picks the key, speaks the provider's API through the guarded fetch, retries
 * what may pass, and turns every failure into an Error whose message names the provider and never
 * contains the key.
 */
export function createModelGateway(deps: ModelGatewayDeps): ModelGateway {
  const resolveKey: ResolveProviderKey = deps.resolveProviderKey ?? ((scope) => resolveProviderKey(scope, { config: deps.config }));
  const sleep = deps.sleep ?? realSleep;
  const random = deps.random ?? Math.random;
  const clock = deps.clock ?? systemClock;
  const policy = { retries: deps.retries ?? MODEL_CALL_RETRIES, mayRetry: true };

  return {
    async complete(request: ModelRequest, scope: { workspaceId: string }): Promise<ModelReply> {
      const { provider } = request;
      if (!isModelProvider(provider)) throw new Error(`Unknown model provider ${JSON.stringify(provider)} (supported: openai, anthropic, google)`);
      if (typeof request.model !== "string" || request.model.trim() === "") throw new Error("A model name is required");
      const found = await resolveKey({ workspaceId: scope.workspaceId, provider });
      if (!found) throw new Error(`No API key for provider ${provider}: set ${PROVIDER_KEY_ENV[provider]}`);
      const format = toJsonSchemaFormat(request.responseFormat);
      if (format && "error" in format) throw new Error(format.error);
      const adapter = ADAPTERS[provider];
      const http = adapter.buildRequest(request, { baseUrl: deps.config.modelProviders[provider].baseUrl, key: found.key }, format);
      const hide = (text: string) => redact(text, found.key);

      for (let attempt = 0; ; attempt++) {
        let answer: GuardedResponse | Error;
        try {
          answer = await deps.fetch(http.url, {
            method: "POST",
            headers: http.headers,
            body: http.body,
            timeoutMs: request.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
          });
        } catch (err) {
          answer = err instanceof Error ? err : new Error(String(err));
        }
        if (!(answer instanceof Error) && answer.status >= 200 && answer.status < 300) {
          const body = readJson(answer);
          if (body === null) throw new Error(`Provider ${provider} sent a reply that is not JSON (HTTP ${answer.status})`);
          const parsed = adapter.parseReply(body);
          if ("error" in parsed) throw new Error(`Provider ${provider}: ${hide(parsed.error)}`);
          return { content: parsed.content, model: parsed.model ?? request.model, tokens: parsed.tokens, byok: found.byok };
        }
        const result: AttemptResult =
          answer instanceof Error
            ? { kind: "failure", reason: answer instanceof OutboundError ? answer.kind : "unknown" }
            : { kind: "response", status: answer.status, retryAfter: answer.headers.get("retry-after") };
        // A timed-out call already waited the whole deadline: trying again would multiply it.
        const delay = result.kind === "failure" && result.reason === "timeout" ? null : retryDelay(result, attempt, policy, clock.now(), random);
        if (delay === null) throw new Error(describeFailure(provider, answer, attempt + 1, hide));
        deps.logger?.debug("model call retry", {
          provider,
          model: request.model,
          attempt: attempt + 1,
          delayMs: delay,
          reason: result.kind === "response" ? `HTTP ${result.status}` : result.reason,
        });
        await sleep(delay);
      }
    },
  };
}

function readJson(response: GuardedResponse): unknown {
  try {
    return JSON.parse(response.text());
  } catch {
    return null;
  }
}

function describeFailure(
  provider: ModelProvider,
  answer: GuardedResponse | Error,
  attempts: number,
  hide: (text: string) => string,
): string {
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : "";
  if (answer instanceof Error) return `Provider ${provider} could not be reached${tries}: ${hide(answer.message || "request failed")}`;
  const status = `HTTP ${answer.status} ${STATUS_CODES[answer.status] ?? ""}`.trim();
  const message = providerMessage(readJson(answer), hide);
  return `Provider ${provider} answered ${status}${tries}${message ? `: ${message}` : ""}`;
}

/** `error.message` in all three APIs' error bodies (also a bare `error` string or `message`). */
function providerMessage(body: unknown, hide: (text: string) => string): string | null {
  if (!isRecord(body)) return null;
  const error = body.error;
  const text = isRecord(error) ? error.message : typeof error === "string" ? error : body.message;
  if (typeof text !== "string" || text.trim() === "") return null;
  // Hidden before shortening, so that a cut cannot leave part of the key behind.
  const oneLine = hide(text).replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_ERROR_MESSAGE ? `${oneLine.slice(0, MAX_ERROR_MESSAGE)}...` : oneLine;
}

/** Providers sometimes quote the key they were sent (e.g. "Incorrect API key provided: ..."). */
function redact(text: string, key: string): string {
  return key.length >= 4 ? text.split(key).join("[redacted]") : text;
}
