import type { DeploymentStatus } from "../../../contract/workflows/schemas.ts";
import type { UserContext } from "../../context.ts";
import { iso } from "../iso.ts";
import { findWorkflowForUser } from "./find-workflow-for-user.ts";

export async function getWorkflowStatus({ ctx, input }: { ctx: UserContext; input: { id: string } }): Promise<DeploymentStatus> {
  const wf = await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "read");
  const isDeployed = wf.deployedVersionId !== null && wf.deployedAt !== null;
  return {
    isDeployed,
    deployedAt: isDeployed ? iso(wf.deployedAt as number) : null,
    needsRedeployment: isDeployed && wf.deployedStateVersion !== wf.stateVersion,
  };
}
