import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { folders } from "./folders.ts";
import { workspaces } from "./workspaces.ts";

export const workflows = sqliteTable(
  "workflows",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    folderId: text("folder_id").references(() => folders.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** JSON of the editable workflow state `{blocks, edges, loops, parallels}`. */
    state: text("state").notNull(),
    /** Bumped on every save; compared with the deployment's to tell `needsRedeployment`. */
    stateVersion: integer("state_version").notNull().default(1),
    deployedVersionId: text("deployed_version_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("workflows_workspace_idx").on(t.workspaceId), index("workflows_folder_idx").on(t.folderId)],
);

/**
 * Immutable snapshots of a workflow's state, one per deploy. Not a foreign key to workflows: the
 * execution details of past runs keep showing the snapshot they ran after the workflow is deleted.
 */
export const workflowDeployments = sqliteTable(
  "workflow_deployments",
  {
    id: text("id").primaryKey(),
    workflowId: text("workflow_id").notNull(),
    version: integer("version").notNull(),
    state: text("state").notNull(),
    stateVersion: integer("state_version").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("workflow_deployments_workflow_idx").on(t.workflowId, t.version)],
);
