import type { Workflow, WorkflowSummary } from "../../../contract/workflows/schemas.ts";
import type { workflows } from "../../db/schema/index.ts";
import { maskStartSecret } from "../../triggers/start-secret.ts";
import { iso } from "../iso.ts";

type Row = Omit<typeof workflows.$inferSelect, "state"> & { deployedAt: number | null };

export function toWorkflowSummary(row: Row): WorkflowSummary {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    folderId: row.folderId,
    name: row.name,
    description: row.description,
    isDeployed: row.deployedVersionId !== null,
    deployedAt: row.deployedAt === null ? null : iso(row.deployedAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function toWorkflow(row: Row & { state: string }): Workflow {
  return { ...toWorkflowSummary(row), state: maskStartSecret(JSON.parse(row.state) as Workflow["state"]) };
}
