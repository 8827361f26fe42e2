import { z } from "zod";
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
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, '_' or '-'")
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
