import type { Context } from "hono";
import type { AppDeps, RequestContext } from "../../context.ts";
import { readJsonBody } from "../../http/read-json-body.ts";
import { parseChatRequest } from "./chat-request.ts";
import { type ChatTurn, openChatTurn } from "./open-chat-turn.ts";
import { runChatTurn } from "./run-chat-turn.ts";
import { splitAnswer, sseEvent } from "./sse.ts";

/**
 * `POST /api/chat/{identifier}`: public, no API key. Refusals (400, 404, 402, ...) are the error
 * envelope before anything is streamed; with `stream: true` the answer is a text/event-stream.
 */
export async function handleChatRequest(
  c: Context<{ Variables: { ctx: RequestContext } }>,
  identifier: string,
): Promise<Response> {
  const ctx = c.get("ctx");
  const body = await readJsonBody(c.req.raw);
  if (!body.ok) throw body.error;
  const request = parseChatRequest(body.value);
  const turn = await openChatTurn({ ctx, input: { identifier, request } });
  if (request.stream) return streamAnswer(ctx, turn);
  const result = await runChatTurn({ ctx, turn });
  const json = result.success
    ? { success: true, conversationId: result.conversationId, executionId: result.executionId, message: result.answer }
    : { success: false, conversationId: result.conversationId, executionId: result.executionId, error: result.error };
  return Response.json(json, { status: result.success ? 200 : 500 });
}

/**
 * The run happens while the stream is open: a comment line goes out at once (so proxies see the
 * answer start), then `message` events with the answer in pieces and a final `done`, or one `error`.
 */
function streamAnswer(ctx: AppDeps, turn: ChatTurn): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // The client went away; the run is recorded all the same.
        }
      };
      send(": accepted\n\n");
      try {
        const result = await runChatTurn({ ctx, turn });
        const ids = { executionId: result.executionId, conversationId: result.conversationId };
        if (result.success) {
          for (const piece of splitAnswer(result.answer)) send(sseEvent("message", { content: piece }));
          send(sseEvent("done", ids));
        } else {
          send(sseEvent("error", { error: result.error, ...ids }));
        }
      } catch (error) {
        ctx.logger.error("chat run failed", { conversationId: turn.conversationId, error: String(error) });
        send(sseEvent("error", { error: "Internal server error", conversationId: turn.conversationId }));
      }
      try {
        controller.close();
      } catch {
        // Already closed by a cancelled client.
      }
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" },
  });
}
