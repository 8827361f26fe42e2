import { z } from "zod";

/** The form of the conversation ids the service issues (`newId("conv")`). */
export const CONVERSATION_ID = /^conv_[0-9a-f]{32}$/;
import { validationError } from "../../http/error-mapping.ts";

export const MAX_CHAT_MESSAGE_CHARS = 32 * 1024;

/** The body of `POST /api/chat/{identifier}` (described for OpenAPI in server/openapi-extra-paths.ts). */
export const chatRequestSchema = z
  .object({
    message: z
      .string()
      .max(MAX_CHAT_MESSAGE_CHARS, `must be at most ${MAX_CHAT_MESSAGE_CHARS} characters`)
      .refine((m) => m.trim() !== "", "must not be empty")
      .describe("The user's message"),
    conversationId: z
      .string()
      // Only ids the service issues (128 random bits): a caller cannot choose an id, or guess another
      // caller's, and read that conversation's history.
      .regex(CONVERSATION_ID, "must be a conversationId the service gave (conv_ and 32 hex digits)")
      .optional()
      .describe("Continue this conversation; omit to start a new one (its id comes back in the answer)"),
    stream: z.boolean().optional().describe("Answer as a text/event-stream (server-sent events)"),
  });

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The validated chat request; 400 INVALID_PARAMETER naming each bad field. */
export function parseChatRequest(body: unknown): ChatRequest {
  const parsed = chatRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error.issues);
  return parsed.data;
}
