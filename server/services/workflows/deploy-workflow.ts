import { and, eq, sql } from "drizzle-orm";
import type { Deployment } from "../../../contract/workflows/schemas.ts";
import type { UserContext } from "../../context.ts";
import { workflowDeployments, workflows } from "../../db/schema/index.ts";
import { conflict } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { planTriggerRegistration, triggerConflictFrom } from "../../triggers/plan-trigger-registration.ts";
import { replaceTriggerStatements } from "../../triggers/trigger-registry-statements.ts";
import { iso } from "../iso.ts";
import { findWorkflowForUser } from "./find-workflow-for-user.ts";

/** Deploys retried when a save lands between reading the state and writing the snapshot. */
const MAX_ATTEMPTS = 3;

/**
 * Snapshots the saved state as the next version and makes it live. The snapshot copies the state and
 * picks the version inside one INSERT ... SELECT, in the same batch as the switch: a save or another
 * deploy racing with this one can neither tear the snapshot nor reuse its version number. The trigger
 * registry row (webhook path, chat identifier, schedule) is derived from the state as read, so the
 * snapshot is only taken if the state version is still the one read; otherwise nothing is written
 * and the deploy starts over.
 */
export async function deployWorkflow({ ctx, input }: { ctx: UserContext; input: { id: string } }): Promise<Deployment> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const workflow = await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "write");
    const id = newId("dep");
    const now = ctx.clock.now();
    const trigger = await planTriggerRegistration(ctx, workflow, id, now);
    let results: unknown[];
    try {
      results = await ctx.db.batch([
        ctx.db.run(sql`
          insert into workflow_deployments (id, workflow_id, version, state, state_version, created_at)
          select ${id}, w.id,
                 coalesce((select max(d.version) from workflow_deployments d where d.workflow_id = w.id), 0) + 1,
                 w.state, w.state_version, ${now}
          from workflows w where w.id = ${input.id} and w.state_version = ${workflow.stateVersion}`),
        ctx.db
          .update(workflows)
          .set({ deployedVersionId: id })
          .where(and(eq(workflows.id, input.id), sql`exists (select 1 from workflow_deployments where id = ${id})`)),
        ...replaceTriggerStatements(ctx.db, input.id, id, trigger),
        ctx.db
          .select({ version: workflowDeployments.version, createdAt: workflowDeployments.createdAt })
          .from(workflowDeployments)
          .where(eq(workflowDeployments.id, id)),
      ]);
    } catch (error) {
      throw triggerConflictFrom(error, trigger) ?? error;
    }
    const row = (results.at(-1) as Array<{ version: number; createdAt: number }>)[0];
    if (row) return { id, workflowId: input.id, version: row.version, deployedAt: iso(row.createdAt) };
  }
  // Still here: the workflow is gone (404 on the next read) or saved on every attempt.
  await findWorkflowForUser(ctx, ctx.actor.userId, input.id, "write");
  throw conflict("The workflow was saved while it was being deployed; deploy again");
}
