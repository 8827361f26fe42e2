import { eq } from "drizzle-orm";
import type { UserContext } from "../../context.ts";
import { workflows } from "../../db/schema/index.ts";
import { removeScheduleStateStatement, removeTriggerStatement } from "../../triggers/trigger-registry-statements.ts";
import { findWorkflowForUser } from "./find-workflow-for-user.ts";

/**
 * Clears the live version and the trigger registry row in one batch, so no trigger can still find
 * the workflow once it answers as not deployed. Deployments are kept (past runs show them).
 */
export async function undeployWorkflow({ ctx, input }: { ctx: UserContext; input: { id: string } }) {
  await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "write");
  await ctx.db.batch([
    ctx.db.update(workflows).set({ deployedVersionId: null }).where(eq(workflows.id, input.id)),
    removeTriggerStatement(ctx.db, input.id),
    removeScheduleStateStatement(ctx.db, input.id),
  ]);
  return { id: input.id, isDeployed: false as const };
}
