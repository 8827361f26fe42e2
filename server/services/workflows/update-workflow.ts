import { eq, sql } from "drizzle-orm";
import type { Workflow, WorkflowStateInput } from "../../../contract/workflows/schemas.ts";
import type { UserContext } from "../../context.ts";
import { workflows } from "../../db/schema/index.ts";
import { notFound } from "../../errors.ts";
import { sealStartSecret } from "../../triggers/start-secret.ts";
import { assertFolderInWorkspace } from "../folders/assert-folder-in-workspace.ts";
import { assertValidState } from "./assert-valid-state.ts";
import { findWorkflowForUser } from "./find-workflow-for-user.ts";
import { toWorkflow } from "./to-workflow.ts";

export type UpdateWorkflowInput = {
  id: string;
  name?: string;
  description?: string;
  folderId?: string | null;
  state?: WorkflowStateInput;
};

/**
 * Changes the fields given. A state that differs from the saved one bumps the state version, which
 * is what makes a deployed workflow report `needsRedeployment`; saving identical state does not.
 */
export async function updateWorkflow({ ctx, input }: { ctx: UserContext; input: UpdateWorkflowInput }): Promise<Workflow> {
  const current = await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "write");
  if (input.folderId) await assertFolderInWorkspace(ctx, input.folderId, current.workspaceId, "folderId");
  let state: string | undefined;
  if (input.state !== undefined) {
    const sealed = sealStartSecret(ctx.secrets, input.state, current.state);
    assertValidState(sealed);
    const text = JSON.stringify(sealed);
    if (text !== current.state) state = text;
  }
  const [row] = await ctx.db
    .update(workflows)
    .set({
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.folderId === undefined ? {} : { folderId: input.folderId }),
      ...(state === undefined ? {} : { state, stateVersion: sql`${workflows.stateVersion} + 1` }),
      updatedAt: ctx.clock.now(),
    })
    .where(eq(workflows.id, input.id))
    .returning();
  if (!row) throw notFound("Workflow");
  return toWorkflow({ ...row, deployedAt: current.deployedAt });
}
