import { STATUS_CODES } from "node:http";
import { OutboundError } from "../../security/create-guarded-fetch.ts";
import type { GuardedResponse } from "../../security/guarded-fetch.ts";
import { redactHeaders } from "../redact.ts";
import type { BlockHandler, BlockOutcome, BlockRunContext } from "./block-handler.ts";
import { API_DEFAULTS, type ApiMethod, apiMethod, validateApiParams } from "./api-params.ts";
import { type ApiRequest, buildApiRequest } from "./api-request.ts";
import { type AttemptResult, retryDelay } from "./api-retry.ts";

/** Outputs read as `<api.data>`, `<api.status>`, `<api.headers>`, `<api.error>` (spec 2.8). */
export type ApiOutput = { data: unknown; status: number; headers: Record<string, string>; error: string | null };

const IDEMPOTENT = new Set<ApiMethod>(["GET", "PUT", "DELETE"]);

/** The HTTP request block: one request through the guarded fetch, retried when the failure may pass. */
export const apiBlock: BlockHandler = {
  validate: validateApiParams,
  async run(params, ctx) {
    const method = apiMethod(params.method) ?? API_DEFAULTS.method;
    const continueOnError = params.continueOnError === true;
    const traceInput = params.headers === undefined ? params : { ...params, headers: redactHeaders(params.headers) };
    const request = buildApiRequest(params, method);
    if ("error" in request) {
      return outcome({ data: null, status: 0, headers: {}, error: request.error }, continueOnError, traceInput);
    }
    const policy = {
      retries: typeof params.retries === "number" ? params.retries : API_DEFAULTS.retries,
      mayRetry: IDEMPOTENT.has(method) || params.retryNonIdempotent === true,
    };
    const timeoutMs = typeof params.timeoutMs === "number" ? params.timeoutMs : API_DEFAULTS.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const answer = await attemptOnce(request, timeoutMs, ctx);
      const result: AttemptResult =
        answer instanceof Error
          ? { kind: "failure", reason: answer instanceof OutboundError ? answer.kind : "unknown" }
          : { kind: "response", status: answer.status, retryAfter: answer.headers.get("retry-after") };
      const delay = retryDelay(result, attempt, policy, ctx.deps.clock.now(), ctx.deps.random);
      if (delay === null) return outcome(toOutput(answer), continueOnError, traceInput);
      ctx.deps.logger.debug("api block retry", {
        executionId: ctx.executionId,
        blockId: ctx.blockId,
        attempt: attempt + 1,
        delayMs: delay,
        reason: result.kind === "response" ? `HTTP ${result.status}` : result.reason,
      });
      await ctx.deps.sleep(delay);
    }
  },
};

async function attemptOnce(request: ApiRequest, timeoutMs: number, ctx: BlockRunContext): Promise<GuardedResponse | Error> {
  try {
    return await ctx.deps.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      timeoutMs,
    });
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

function toOutput(answer: GuardedResponse | Error): ApiOutput {
  if (answer instanceof Error) return { data: null, status: 0, headers: {}, error: answer.message || "Request failed" };
  const map = new Map<string, string>();
  answer.headers.forEach((value, name) => {
    const previous = map.get(name);
    map.set(name, previous === undefined ? value : `${previous}, ${value}`);
  });
  const headers: Record<string, string> = Object.fromEntries(map);
  const error = answer.status >= 400 ? `HTTP ${answer.status} ${STATUS_CODES[answer.status] ?? ""}`.trim() : null;
  return { data: parseBody(answer), status: answer.status, headers, error };
}

/** JSON when the server says so or the text is a JSON object/array; otherwise text; null when empty. */
function parseBody(response: GuardedResponse): unknown {
  if (response.body.byteLength === 0) return null;
  const text = response.text();
  const type = response.headers.get("content-type") ?? "";
  const first = text.trimStart()[0];
  if (type.toLowerCase().includes("json") || first === "{" || first === "[") {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function outcome(output: ApiOutput, continueOnError: boolean, traceInput: unknown): BlockOutcome {
  const headers = redactHeaders(output.headers);
  const traceOutput = headers === output.headers ? output : { ...output, headers };
  return { output, error: output.error, continueOnError, traceInput, traceOutput };
}
