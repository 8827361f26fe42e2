import type { AppDeps } from "../../context.ts";
import type { ChatMessage } from "../../executor/types.ts";
import { notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { assertWithinUsageLimit } from "../../limits/execution-limits.ts";
import { findTriggerTarget, type TriggerTarget } from "../find-trigger-target.ts";
import { CHAT_IDENTIFIER } from "../start-trigger.ts";
import type { ChatRequest } from "./chat-request.ts";
import { loadConversation } from "./load-conversation.ts";

/** A chat message accepted for a run: the workflow, the conversation and its earlier turns. */
export type ChatTurn = {
  target: TriggerTarget;
  conversationId: string;
  message: string;
  history: ChatMessage[];
};

/**
 * Everything checked before a chat run starts (so a streamed answer only opens once the message is
 * accepted): the identifier is registered to a live workflow (404), then the workspace owner's usage
 * limit (402). Chat runs are not rate limited. A message without conversationId starts a new one.
 */
export async function openChatTurn({
  ctx,
  input,
}: {
  ctx: AppDeps;
  input: { identifier: string; request: ChatRequest };
}): Promise<ChatTurn> {
  const target = CHAT_IDENTIFIER.test(input.identifier) ? await findTriggerTarget(ctx, "chat", input.identifier) : null;
  if (!target) throw notFound(`Chat "${input.identifier}"`);
  await assertWithinUsageLimit(ctx, target.ownerId);
  const conversationId = input.request.conversationId ?? newId("conv");
  const history = input.request.conversationId ? await loadConversation(ctx, target.workflowId, conversationId) : [];
  return { target, conversationId, message: input.request.message, history };
}
