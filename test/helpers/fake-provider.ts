import { afterAll, beforeAll, beforeEach } from "vitest";
import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "../../server/config.ts";

export type FakeProviderName = "openai" | "anthropic" | "google";

/** How the fake answers one request. Everything is optional: the default is a 200 echoing the prompt. */
export type ScriptedReply = {
  /** The reply's text (default `echo: <last user message>`). */
  content?: string;
  /** Usage the reply reports (default 12 prompt, 7 completion); `thoughts` is Google's thoughtsTokenCount. */
  tokens?: { prompt: number; completion: number; thoughts?: number };
  /** The model the reply names (default: the one asked for). */
  model?: string;
  /** A non-2xx status answers with the provider's error body carrying `error` as its message. */
  status?: number;
  error?: string;
  headers?: Record<string, string>;
  /** Sent as is instead of the provider-shaped reply (JSON-encoded unless a string). */
  body?: unknown;
  /** Close the connection without answering (a network failure for the client). */
  drop?: boolean;
};

/** One request the fake received, parsed. */
export type FakeProviderRequest = {
  provider: FakeProviderName;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body the client sent. */
  body: Record<string, unknown>;
  /** The model asked for (body.model, or Google's path segment). */
  model: string;
  /** The system prompt, however the API carries it. */
  system: string | undefined;
  /** The text of the last user message. */
  prompt: string;
};

type Script = ScriptedReply | ((req: FakeProviderRequest) => ScriptedReply);

export type FakeProvider = {
  url: string;
  /** The keys the fake accepts; any other key gets the provider's 401. */
  keys: Record<FakeProviderName, string>;
  /** Env for startTestServer: base URLs pointing here and the accepted keys. */
  env: Record<string, string>;
  /** The same, as Config["modelProviders"], for unit tests. */
  config: Config["modelProviders"];
  requests: FakeProviderRequest[];
  /** Queues replies: each request takes the next one; once they run out, the default reply. */
  script(...replies: Script[]): void;
  /** Forgets requests and queued replies. */
  reset(): void;
  close(): Promise<void>;
};

const ROUTES: Array<[RegExp, FakeProviderName]> = [
  [/^\/openai\/v1\/chat\/completions$/, "openai"],
  [/^\/anthropic\/v1\/messages$/, "anthropic"],
  [/^\/google\/v1beta\/models\/([^/]+):generateContent$/, "google"],
];

const DEFAULT_TOKENS = { prompt: 12, completion: 7 };

/** A real HTTP server on 127.0.0.1:0 speaking the OpenAI, Anthropic and Gemini APIs' request/reply shapes. */
export async function startFakeProvider(): Promise<FakeProvider> {
  const keys: Record<FakeProviderName, string> = {
    openai: "sk-fake-openai-0123456789",
    anthropic: "sk-ant-fake-0123456789",
    google: "AIza-fake-google-0123456789",
  };
  const requests: FakeProviderRequest[] = [];
  const queue: Script[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://fake").pathname;
      const route = ROUTES.map(([re, name]) => [re.exec(path), name] as const).find(([m]) => m !== null);
      if (!route) return send(res, 404, { error: { message: `No such endpoint: ${path}` } });
      const [match, provider] = route;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(res, 400, errorBody(provider, 400, "The request body is not valid JSON"));
      }
      const received: FakeProviderRequest = {
        provider,
        method: req.method ?? "",
        path,
        headers: req.headers,
        body,
        model: provider === "google" ? decodeURIComponent(match?.[1] ?? "") : String(body.model ?? ""),
        ...promptsOf(provider, body),
      };
      requests.push(received);
      const next = queue.shift();
      const reply = typeof next === "function" ? next(received) : (next ?? {});
      if (reply.drop) return res.socket?.destroy();
      const sentKey = provider === "openai"
        ? String(req.headers.authorization ?? "").replace(/^Bearer /, "")
        : String(req.headers[provider === "anthropic" ? "x-api-key" : "x-goog-api-key"] ?? "");
      if (sentKey !== keys[provider] && reply.status === undefined && reply.body === undefined) {
        // Like the real APIs, the message quotes the key it was given.
        return send(res, 401, errorBody(provider, 401, `Incorrect API key provided: ${sentKey}`));
      }
      if (reply.body !== undefined) return send(res, reply.status ?? 200, reply.body, reply.headers);
      if (reply.status !== undefined && (reply.status < 200 || reply.status >= 300)) {
        return send(res, reply.status, errorBody(provider, reply.status, reply.error ?? `Scripted failure ${reply.status}`), reply.headers);
      }
      const content = reply.content ?? `echo: ${received.prompt}`;
      const tokens = reply.tokens ?? DEFAULT_TOKENS;
      send(res, reply.status ?? 200, successBody(provider, reply.model ?? received.model, content, tokens), reply.headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: Config["modelProviders"] = {
    openai: { baseUrl: `${url}/openai/v1`, apiKey: keys.openai },
    anthropic: { baseUrl: `${url}/anthropic`, apiKey: keys.anthropic },
    google: { baseUrl: `${url}/google`, apiKey: keys.google },
  };
  return {
    url,
    keys,
    config,
    env: {
      OPENAI_BASE_URL: config.openai.baseUrl,
      OPENAI_API_KEY: keys.openai,
      ANTHROPIC_BASE_URL: config.anthropic.baseUrl,
      ANTHROPIC_API_KEY: keys.anthropic,
      GOOGLE_BASE_URL: config.google.baseUrl,
      GOOGLE_API_KEY: keys.google,
    },
    requests,
    script: (...replies) => {
      queue.push(...replies);
    },
    reset: () => {
      requests.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fake provider for a whole test file: started before all tests, reset before each, closed after. */
export function useFakeProvider(): () => FakeProvider {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());
  return () => fake;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

function successBody(
  provider: FakeProviderName,
  model: string,
  content: string,
  tokens: { prompt: number; completion: number; thoughts?: number },
): unknown {
  if (provider === "openai") {
    return {
      id: "chatcmpl-fake",
      object: "chat.completion",
      created: 1_768_478_400,
      model,
      choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: "stop" }],
      usage: { prompt_tokens: tokens.prompt, completion_tokens: tokens.completion, total_tokens: tokens.prompt + tokens.completion },
    };
  }
  if (provider === "anthropic") {
    return {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text: content }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: tokens.prompt, output_tokens: tokens.completion },
    };
  }
  const thoughts = tokens.thoughts ?? 0;
  return {
    candidates: [{ content: { role: "model", parts: [{ text: content }] }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: tokens.prompt,
      candidatesTokenCount: tokens.completion,
      ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
      totalTokenCount: tokens.prompt + tokens.completion + thoughts,
    },
    modelVersion: model,
  };
}

function errorBody(provider: FakeProviderName, status: number, message: string): unknown {
  if (provider === "openai") return { error: { message, type: status === 429 ? "rate_limit_exceeded" : "api_error", param: null, code: null } };
  if (provider === "anthropic") return { type: "error", error: { type: status === 429 ? "rate_limit_error" : "api_error", message } };
  return { error: { code: status, message, status: status === 429 ? "RESOURCE_EXHAUSTED" : "INTERNAL" } };
}

type Turn = { role?: unknown; content?: unknown; parts?: unknown };

/** The system prompt and the last user message's text, read the way each API carries them. */
function promptsOf(provider: FakeProviderName, body: Record<string, unknown>): { system: string | undefined; prompt: string } {
  const textOf = (value: unknown): string =>
    typeof value === "string"
      ? value
      : Array.isArray(value)
        ? value.map((p) => (typeof (p as { text?: unknown })?.text === "string" ? (p as { text: string }).text : "")).join("")
        : "";
  if (provider === "google") {
    const contents = (Array.isArray(body.contents) ? body.contents : []) as Turn[];
    const lastUser = contents.filter((t) => t.role === "user").at(-1);
    const system = (body.systemInstruction as { parts?: unknown } | undefined)?.parts;
    return { system: system === undefined ? undefined : textOf(system), prompt: textOf(lastUser?.parts) };
  }
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Turn[];
  const lastUser = messages.filter((m) => m.role === "user").at(-1);
  const system = provider === "openai" ? messages.find((m) => m.role === "system")?.content : body.system;
  return { system: system === undefined ? undefined : textOf(system), prompt: textOf(lastUser?.content) };
}
