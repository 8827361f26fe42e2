import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { scheduleStates, workflowTriggers } from "../db/schema/index.ts";
import type { TriggerRow } from "./plan-trigger-registration.ts";

/**
 * Statements for the deploy batch that make `row` the workflow's only registry entry, applied only
 * if the deployment `deploymentId` was written by the same batch (deploy-workflow.ts guards its
 * snapshot; when the guard skips it, the registry stays as it was).
 */
export function replaceTriggerStatements(db: Db, workflowId: string, deploymentId: string, row: TriggerRow | null) {
  const deployed = sql`exists (select 1 from workflow_deployments where id = ${deploymentId})`;
  const statements = [
    db.run(sql`delete from workflow_triggers where workflow_id = ${workflowId} and ${deployed}`),
    // A new deployment's schedule starts afresh (its cron may differ): no leftover next tick.
    db.run(sql`delete from schedule_states where workflow_id = ${workflowId} and ${deployed}`),
  ];
  if (row) {
    statements.push(
      db.run(sql`
        insert into workflow_triggers (id, kind, key, workflow_id, workspace_id, deployment_id, config, created_at)
        select ${row.id}, ${row.kind}, ${row.key}, ${row.workflowId}, ${row.workspaceId}, ${row.deploymentId},
               ${row.config ?? "{}"}, ${row.createdAt}
        where ${deployed}`),
    );
  }
  return statements;
}

/** Removes the workflow's registry entry (undeploy, delete). */
export function removeTriggerStatement(db: Db, workflowId: string) {
  return db.delete(workflowTriggers).where(eq(workflowTriggers.workflowId, workflowId));
}

/** Forgets where the workflow's schedule stood (undeploy, delete). */
export function removeScheduleStateStatement(db: Db, workflowId: string) {
  return db.delete(scheduleStates).where(eq(scheduleStates.workflowId, workflowId));
}
