import { and, desc, eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { chatMessages } from "../../db/schema/index.ts";
import type { ChatMessage } from "../../executor/types.ts";

/** Earlier turns handed to a chat run. */
export const CONVERSATION_TURNS = 50;

/** The conversation's last turns, oldest first (`id` orders turns written in the same millisecond). */
export async function loadConversation(
  ctx: Pick<AppDeps, "db">,
  workflowId: string,
  conversationId: string,
): Promise<ChatMessage[]> {
  const rows = await ctx.db
    .select({ role: chatMessages.role, content: chatMessages.content })
    .from(chatMessages)
    .where(and(eq(chatMessages.workflowId, workflowId), eq(chatMessages.conversationId, conversationId)))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(CONVERSATION_TURNS);
  return rows.reverse();
}
