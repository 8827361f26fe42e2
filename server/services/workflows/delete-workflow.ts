import { eq } from "drizzle-orm";
import type { UserContext } from "../../context.ts";
import { chatMessages, workflows } from "../../db/schema/index.ts";
import { removeScheduleStateStatement, removeTriggerStatement } from "../../triggers/trigger-registry-statements.ts";
import { findWorkflowForUser } from "./find-workflow-for-user.ts";

/**
 * Deletes the workflow. Its deployments and execution logs stay, so past runs keep their execution
 * details (spec 2.6), workflow snapshot included. Its trigger registry row and chat history go with it.
 */
export async function deleteWorkflow({ ctx, input }: { ctx: UserContext; input: { id: string } }) {
  await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "write");
  await ctx.db.batch([
    ctx.db.delete(workflows).where(eq(workflows.id, input.id)),
    removeTriggerStatement(ctx.db, input.id),
    removeScheduleStateStatement(ctx.db, input.id),
    ctx.db.delete(chatMessages).where(eq(chatMessages.workflowId, input.id)),
  ]);
  return { id: input.id, deleted: true as const };
}
