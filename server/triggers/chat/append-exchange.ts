import type { AppDeps } from "../../context.ts";
import { chatMessages } from "../../db/schema/index.ts";

/** Records one exchange, the user's message before the answer, in one statement. */
export async function appendExchange(
  ctx: Pick<AppDeps, "db">,
  turn: { workflowId: string; conversationId: string; message: string; answer: string; at: number },
): Promise<void> {
  const row = { workflowId: turn.workflowId, conversationId: turn.conversationId, createdAt: turn.at };
  await ctx.db.insert(chatMessages).values([
    { ...row, role: "user", content: turn.message },
    { ...row, role: "assistant", content: turn.answer },
  ]);
}
