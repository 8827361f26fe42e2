import { MAX_CHAT_MESSAGE_CHARS } from "./triggers/chat/chat-request.ts";

/*
 * Routes served by Hono handlers rather than tRPC procedures (the public trigger routes), described
 * by hand and merged into the generated document. Keep in step with docs/triggers.md.
 */

const envelope = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
});

const runFailed = {
  description: "The run failed",
  content: {
    "application/json": {
      schema: {
        type: "object",
        properties: { success: { const: false }, executionId: { type: "string" }, error: { type: "string" } },
        required: ["success", "executionId", "error"],
      },
    },
  },
};

const webhookOperation = (method: string) => ({
  operationId: `webhooks-trigger-${method}`,
  summary: "Run the workflow deployed with this webhook path (trigger webhook)",
  description:
    "Public: no API key. The run's input is {body, headers, query, method}; a JSON body (by content-type) is " +
    "parsed, any other body is text. When the start block sets a secret, send it in X-Webhook-Secret, or with " +
    'signature "hmac-sha256" send X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>. Billed and ' +
    "rate limited (sync bucket) as the workspace owner. A response block's status, headers and data make the " +
    "answer; otherwise 200 {success, executionId, output}. See docs/triggers.md.",
  tags: ["triggers"],
  security: [],
  parameters: [
    {
      name: "path",
      in: "path",
      required: true,
      description: "The start block's webhook path (may contain '/')",
      schema: { type: "string" },
    },
    { name: "x-webhook-secret", in: "header", required: false, schema: { type: "string" } },
    { name: "x-webhook-signature", in: "header", required: false, schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" } },
  ],
  ...(method === "get"
    ? {}
    : {
        requestBody: {
          required: false,
          content: { "application/json": { schema: {} }, "text/plain": { schema: { type: "string" } } },
        },
      }),
  responses: {
    "200": {
      description: "The response block's data with its status and headers, or this object without a response block",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { success: { const: true }, executionId: { type: "string" }, output: {} },
            required: ["success", "executionId", "output"],
          },
        },
      },
    },
    "400": envelope("Invalid JSON body"),
    "401": envelope("Missing or wrong secret or signature"),
    "402": envelope("The workspace owner's usage limit is reached"),
    "404": envelope("No deployed workflow has this webhook path"),
    "413": envelope("The body is larger than 1 MiB"),
    "429": envelope("The workspace owner's sync rate limit is exhausted"),
    "500": runFailed,
  },
});

const chatRequest = {
  type: "object",
  properties: {
    message: { type: "string", minLength: 1, maxLength: MAX_CHAT_MESSAGE_CHARS, description: "The user's message" },
    conversationId: {
      type: "string",
      pattern: "^conv_[0-9a-f]{32}$",
      description: "Continue this conversation (an id the service gave); omit to start a new one",
    },
    stream: { type: "boolean", description: "Answer as text/event-stream (server-sent events)" },
  },
  required: ["message"],
};

const chatOperation = {
  operationId: "chat-post",
  summary: "Send a message to the workflow deployed with this chat identifier (trigger chat)",
  description:
    "Public: no API key, not rate limited; billed to the workspace owner (402 when their usage limit is reached). " +
    "The run's input is {message, conversationId} and the conversation's earlier turns. With stream true the " +
    "answer is text/event-stream: `message` events ({content}) with pieces of the answer, then `done` " +
    "({executionId, conversationId}), or `error`. See docs/triggers.md.",
  tags: ["triggers"],
  security: [],
  parameters: [{ name: "identifier", in: "path", required: true, schema: { type: "string", pattern: "^[a-z0-9][a-z0-9-]{0,63}$" } }],
  requestBody: { required: true, content: { "application/json": { schema: chatRequest } } },
  responses: {
    "200": {
      description: "The answer",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: {
              success: { const: true },
              conversationId: { type: "string" },
              executionId: { type: "string" },
              message: { type: "string", description: "The answer text" },
            },
            required: ["success", "conversationId", "executionId", "message"],
          },
        },
        "text/event-stream": { schema: { type: "string" } },
      },
    },
    "400": envelope("Invalid message or conversationId"),
    "402": envelope("The workspace owner's usage limit is reached"),
    "404": envelope("No deployed workflow has this chat identifier"),
    "413": envelope("The body is larger than 1 MiB"),
    "415": envelope("The body is not JSON"),
    "500": runFailed,
  },
};

/** The public trigger routes, as OpenAPI path items. */
export const openApiExtraPaths = {
  "/api/webhooks/trigger/{path}": {
    get: webhookOperation("get"),
    post: webhookOperation("post"),
    put: webhookOperation("put"),
  },
  "/api/chat/{identifier}": { post: chatOperation },
};
