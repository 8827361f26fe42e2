import type { Hono } from "hono";
import type { RequestContext } from "../context.ts";
import { handleChatRequest } from "./chat/handle-chat-request.ts";
import { handleWebhookRequest } from "./webhook/handle-webhook-request.ts";

const TRIGGER_ROUTE = /^\/api\/(?:webhooks\/trigger|chat)\//i;
const WEBHOOK_PATH = /^\/api\/webhooks\/trigger\/(.*)$/i;
const CHAT_PATH = /^\/api\/chat\/([^/]+)\/?$/i;

/**
 * The public trigger routes (no API key), mounted before the REST catch-all. Matched on the raw
 * path, case-insensitively like every REST path; the webhook path and chat identifier themselves
 * are compared exactly.
 */
export function mountTriggerRoutes(app: Hono<{ Variables: { ctx: RequestContext } }>): void {
  app.all("/api/*", (c, next) => {
    // Cheap test first: this runs in front of every API request.
    if (!TRIGGER_ROUTE.test(c.req.path)) return next();
    const pathname = new URL(c.req.url).pathname;
    const webhook = WEBHOOK_PATH.exec(pathname);
    if (webhook) return handleWebhookRequest(c, webhook[1]);
    const chat = c.req.method === "POST" ? CHAT_PATH.exec(pathname) : null;
    return chat ? handleChatRequest(c, chat[1]) : next();
  });
}
