import type { AppDeps } from "../../context.ts";
import { runExecution } from "../../services/executions/run-execution.ts";
import { answerText } from "./answer-text.ts";
import { appendExchange } from "./append-exchange.ts";
import type { ChatTurn } from "./open-chat-turn.ts";

export type ChatTurnResult =
  | { success: true; executionId: string; conversationId: string; answer: string }
  | { success: false; executionId: string; conversationId: string; error: string };

/**
 * Runs the workflow for one chat message (trigger `chat`, billed to the workspace owner) with the
 * input `{message, conversationId}` and the earlier turns as the run's conversation. A successful
 * exchange is added to the conversation; a failed run leaves the conversation as it was.
 */
export async function runChatTurn({ ctx, turn }: { ctx: AppDeps; turn: ChatTurn }): Promise<ChatTurnResult> {
  const { target, conversationId, message } = turn;
  const run = await runExecution({
    ctx,
    workflow: { id: target.workflowId, workspaceId: target.workspaceId },
    deployment: { id: target.deploymentId, state: target.state },
    input: { message, conversationId },
    trigger: "chat",
    userId: target.ownerId,
    conversation: turn.history,
  });
  if (!run.success) {
    return { success: false, executionId: run.executionId, conversationId, error: run.error ?? "The workflow failed" };
  }
  const answer = answerText(run.output);
  await appendExchange(ctx, { workflowId: target.workflowId, conversationId, message, answer, at: run.endedAt });
  return { success: true, executionId: run.executionId, conversationId, answer };
}
