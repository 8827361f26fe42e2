import type { Workflow } from "../../../contract/workflows/schemas.ts";
import type { UserContext } from "../../context.ts";
import { findWorkflowForUser } from "./find-workflow-for-user.ts";
import { toWorkflow } from "./to-workflow.ts";

export async function getWorkflow({ ctx, input }: { ctx: UserContext; input: { id: string } }): Promise<Workflow> {
  return toWorkflow(await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "read"));
}
