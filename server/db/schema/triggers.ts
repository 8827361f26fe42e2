import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The trigger registry: one row per deployed workflow whose start block is a webhook, chat or
 * schedule trigger, written with the deployment and removed by undeploy and delete. The unique
 * (kind, key) is what keeps two workflows from claiming the same webhook path or chat identifier.
 */
export const workflowTriggers = sqliteTable(
  "workflow_triggers",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["webhook", "chat", "schedule"] }).notNull(),
    /** The webhook path, the chat identifier, or the workflow id for a schedule. */
    key: text("key").notNull(),
    workflowId: text("workflow_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    deploymentId: text("deployment_id").notNull(),
    /** JSON: `{cron, timezone}` for a schedule; `{secret?, signature?}` for a webhook, the secret sealed. */
    config: text("config").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("workflow_triggers_kind_key_idx").on(t.kind, t.key),
    uniqueIndex("workflow_triggers_workflow_idx").on(t.workflowId),
  ],
);

/** The turns of chat-trigger conversations, per workflow; `id` orders turns written in the same millisecond. */
export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    conversationId: text("conversation_id").notNull(),
    workflowId: text("workflow_id").notNull(),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("chat_messages_conversation_idx").on(t.workflowId, t.conversationId, t.createdAt)],
);
