import { eq } from "drizzle-orm";
import type { UserContext } from "../../context.ts";
import { workflows } from "../../db/schema/index.ts";
import { findWorkflowForUser } from "./find-workflow-for-user.ts";

/**
 * Deletes the workflow. Its deployments and execution logs stay, so past runs keep their execution
 * details (spec 2.6), workflow snapshot included.
 */
export async function deleteWorkflow({ ctx, input }: { ctx: UserContext; input: { id: string } }) {
  await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "write");
  await ctx.db.delete(workflows).where(eq(workflows.id, input.id));
  return { id: input.id, deleted: true as const };
}
