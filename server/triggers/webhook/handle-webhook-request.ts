import type { Context } from "hono";
import type { RequestContext } from "../../context.ts";
import { AppError } from "../../errors.ts";
import { MAX_BODY_BYTES } from "../../http/read-json-body.ts";
import { readRawBody } from "../../http/read-raw-body.ts";
import { runWebhookTrigger, type WebhookAnswer } from "./run-webhook-trigger.ts";

const METHODS = new Set(["GET", "POST", "PUT"]);
const NULL_BODY_STATUS = new Set([204, 205, 304]);

/**
 * `GET|POST|PUT /api/webhooks/trigger/{path}`: public (the trigger's secret, if any, is the
 * credential). Errors propagate to the app's error handler and its envelope.
 */
export async function handleWebhookRequest(
  c: Context<{ Variables: { ctx: RequestContext } }>,
  path: string,
): Promise<Response> {
  // c.req.method would say GET for a HEAD request, which must not start a run.
  const method = c.req.raw.method.toUpperCase();
  if (!METHODS.has(method)) {
    throw new AppError(405, "METHOD_NOT_ALLOWED", `A webhook is called with GET, POST or PUT, not ${method}`, undefined, {
      Allow: "GET, POST, PUT",
    });
  }
  const request = c.req.raw;
  const rawBody = method === "GET" ? new Uint8Array() : await readRawBody(request, MAX_BODY_BYTES);
  const answer = await runWebhookTrigger({
    ctx: c.get("ctx"),
    input: { path, method, headers: request.headers, url: new URL(request.url), rawBody },
  });
  return toResponse(answer);
}

function toResponse(answer: WebhookAnswer): Response {
  const headers = new Headers(answer.headers);
  if (NULL_BODY_STATUS.has(answer.status)) return new Response(null, { status: answer.status, headers });
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}
