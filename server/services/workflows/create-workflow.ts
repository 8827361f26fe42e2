import type { Workflow, WorkflowStateInput } from "../../../contract/workflows/schemas.ts";
import type { UserContext } from "../../context.ts";
import { workflows } from "../../db/schema/index.ts";
import { newId } from "../../ids.ts";
import { sealStartSecret } from "../../triggers/start-secret.ts";
import { requireWorkspacePermission } from "../auth/require-workspace-permission.ts";
import { assertFolderInWorkspace } from "../folders/assert-folder-in-workspace.ts";
import { assertValidState } from "./assert-valid-state.ts";
import { toWorkflow } from "./to-workflow.ts";

export type CreateWorkflowInput = {
  workspaceId: string;
  name: string;
  description?: string;
  folderId?: string | null;
  state: WorkflowStateInput;
};

/** Creates a workflow (not deployed) after validating its state. */
export async function createWorkflow({ ctx, input }: { ctx: UserContext; input: CreateWorkflowInput }): Promise<Workflow> {
  await requireWorkspacePermission(ctx, ctx.actor.userId, input.workspaceId, "write");
  const folderId = input.folderId ?? null;
  if (folderId !== null) await assertFolderInWorkspace(ctx, folderId, input.workspaceId, "folderId");
  const state = sealStartSecret(ctx.secrets, input.state, null);
  assertValidState(state);
  const now = ctx.clock.now();
  const row = {
    id: newId("wf"),
    workspaceId: input.workspaceId,
    folderId,
    name: input.name,
    description: input.description ?? "",
    state: JSON.stringify(state),
    stateVersion: 1,
    deployedVersionId: null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.insert(workflows).values(row);
  return toWorkflow({ ...row, deployedAt: null });
}
