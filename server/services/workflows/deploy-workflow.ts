import { eq, sql } from "drizzle-orm";
import type { Deployment } from "../../../contract/workflows/schemas.ts";
import type { UserContext } from "../../context.ts";
import { workflowDeployments, workflows } from "../../db/schema/index.ts";
import { notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { iso } from "../iso.ts";
import { findWorkflowForUser } from "./find-workflow-for-user.ts";

/**
 * Snapshots the saved state as the next version and makes it live. The snapshot copies the state and
 * picks the version inside one INSERT ... SELECT, in the same batch as the switch: a save or another
 * deploy racing with this one can neither tear the snapshot nor reuse its version number.
 */
export async function deployWorkflow({ ctx, input }: { ctx: UserContext; input: { id: string } }): Promise<Deployment> {
  await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "write");
  const id = newId("dep");
  const now = ctx.clock.now();
  const [, , created] = await ctx.db.batch([
    ctx.db.run(sql`
      insert into workflow_deployments (id, workflow_id, version, state, state_version, created_at)
      select ${id}, w.id,
             coalesce((select max(d.version) from workflow_deployments d where d.workflow_id = w.id), 0) + 1,
             w.state, w.state_version, ${now}
      from workflows w where w.id = ${input.id}`),
    ctx.db.update(workflows).set({ deployedVersionId: id }).where(eq(workflows.id, input.id)),
    ctx.db
      .select({ version: workflowDeployments.version, createdAt: workflowDeployments.createdAt })
      .from(workflowDeployments)
      .where(eq(workflowDeployments.id, id)),
  ]);
  const row = created[0];
  if (!row) throw notFound("Workflow");
  return { id, workflowId: input.id, version: row.version, deployedAt: iso(row.createdAt) };
}
