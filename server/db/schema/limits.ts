import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Token buckets shared by every process on the database (spec 8.1). */
export const rateLimitBuckets = sqliteTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  tokens: real("tokens").notNull(),
  updatedAt: integer("updated_at").notNull(),
  /** Tokens the last take handed out (0: it was refused). */
  lastAllowed: integer("last_allowed").notNull().default(1),
});

/** Running cost per user and billing period (`YYYY-MM`, UTC), kept in step with completed logs. */
export const usagePeriods = sqliteTable(
  "usage_periods",
  {
    userId: text("user_id").notNull(),
    period: text("period").notNull(),
    cost: real("cost").notNull().default(0),
    executions: integer("executions").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period] })],
);
