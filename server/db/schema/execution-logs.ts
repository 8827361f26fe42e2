import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One row per execution. Inserted with status `running` when a run starts and completed in place,
 * so readers can hold their ascending cursor behind runs still in progress (docs/logs-api.md).
 * Workflow and workspace ids are not foreign keys: logs outlive deleted workflows.
 */
export const executionLogs = sqliteTable(
  "execution_logs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    workflowId: text("workflow_id").notNull(),
    executionId: text("execution_id").notNull().unique(),
    /** The user whose usage the run counts against. */
    userId: text("user_id"),
    deploymentId: text("deployment_id"),
    status: text("status", { enum: ["running", "success", "error"] }).notNull(),
    level: text("level", { enum: ["info", "error"] }).notNull(),
    trigger: text("trigger", { enum: ["api", "webhook", "schedule", "manual", "chat"] }).notNull(),
    startedAt: integer("started_at").notNull(),
    endedAt: integer("ended_at"),
    totalDurationMs: integer("total_duration_ms"),
    costTotal: real("cost_total").notNull().default(0),
    /** JSON cost object (spec 2.3). */
    cost: text("cost"),
    files: text("files"),
    traceSpans: text("trace_spans"),
    finalOutput: text("final_output"),
    error: text("error"),
    /**
     * The server process running it, while `running` (its liveness is the `process:<id>` lease);
     * null for queued runs, whose job's lease says whether a worker still has them.
     */
    ownerProcess: text("owner_process"),
  },
  (t) => [
    index("execution_logs_workspace_started_idx").on(t.workspaceId, t.startedAt, t.id),
    index("execution_logs_workflow_started_idx").on(t.workflowId, t.startedAt, t.id),
    index("execution_logs_running_idx").on(t.workspaceId, t.status, t.startedAt),
    // Only running rows: the sweep for runs whose process died reads just these.
    index("execution_logs_open_runs_idx").on(t.startedAt).where(sql`status = 'running'`),
  ],
);

/**
 * Models used by a run, for the logs API `model` filter. The run's workspace and start are copied
 * here so a model-filtered page is a keyset range on (workspace_id, model, started_at, log_id), in
 * the same order as the log list, instead of a scan of the workspace's runs testing each one.
 */
export const executionLogModels = sqliteTable(
  "execution_log_models",
  {
    logId: text("log_id").notNull().references(() => executionLogs.id, { onDelete: "cascade" }),
    model: text("model").notNull(),
    workspaceId: text("workspace_id"),
    startedAt: integer("started_at"),
  },
  (t) => [
    primaryKey({ columns: [t.logId, t.model] }),
    index("execution_log_models_model_idx").on(t.model),
    index("execution_log_models_page_idx").on(t.workspaceId, t.model, t.startedAt, t.logId),
  ],
);
