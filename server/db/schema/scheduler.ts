import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Where each deployed schedule stands: the last tick it enqueued and the next one it waits for. */
export const scheduleStates = sqliteTable("schedule_states", {
  workflowId: text("workflow_id").primaryKey(),
  /** Epoch ms of the last tick a run was enqueued (or skipped) for. */
  lastTickAt: integer("last_tick_at"),
  /** Epoch ms of the next tick; null when the pattern never fires again. */
  nextTickAt: integer("next_tick_at"),
  updatedAt: integer("updated_at").notNull(),
});

/** Named leases: one holder at a time across processes (e.g. the scheduler's leader). */
export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  owner: text("owner").notNull(),
  expiresAt: integer("expires_at").notNull(),
});
