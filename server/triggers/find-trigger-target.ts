import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../context.ts";
import { workflows, workflowTriggers, workspaces } from "../db/schema/index.ts";
import type { WorkflowState } from "../executor/types.ts";
import { loadDeploymentState } from "../services/workflows/deployment-state-cache.ts";

/** A deployed workflow found through the trigger registry, with who its runs are billed to. */
export type TriggerTarget = {
  workflowId: string;
  workspaceId: string;
  deploymentId: string;
  state: WorkflowState;
  /** The workspace owner: public triggers run, are billed and rate limited as them. */
  ownerId: string;
  /** The registry row's config (for a webhook, the sealed secret and signature mode). */
  config: Record<string, unknown>;
};

/**
 * The live workflow registered for a webhook path or chat identifier; null when none is (never
 * deployed with it, undeployed, deleted). The row must still match the workflow's live deployment.
 */
export async function findTriggerTarget(
  ctx: Pick<AppDeps, "db">,
  kind: "webhook" | "chat",
  key: string,
): Promise<TriggerTarget | null> {
  const row = await ctx.db
    .select({
      workflowId: workflowTriggers.workflowId,
      workspaceId: workflows.workspaceId,
      deploymentId: workflowTriggers.deploymentId,
      ownerId: workspaces.ownerId,
      config: workflowTriggers.config,
    })
    .from(workflowTriggers)
    .innerJoin(
      workflows,
      and(eq(workflows.id, workflowTriggers.workflowId), eq(workflows.deployedVersionId, workflowTriggers.deploymentId)),
    )
    .innerJoin(workspaces, eq(workspaces.id, workflows.workspaceId))
    .where(and(eq(workflowTriggers.kind, kind), eq(workflowTriggers.key, key)))
    .get();
  if (!row) return null;
  const state = await loadDeploymentState(ctx, row.deploymentId);
  if (!state) return null;
  return { ...row, state, config: JSON.parse(row.config) as Record<string, unknown> };
}
