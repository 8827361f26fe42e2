import type { InStatement } from "@libsql/client";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { executionLogModels, executionLogs } from "../../db/schema/index.ts";
import { addUsageStatement, billingPeriod } from "../../limits/usage.ts";
import { type CompiledStatement, compileStatement, placeholder as p } from "./compiled-statement.ts";

type Level = "info" | "error";

/** The statements every execution writes, compiled on first use (the SQL is the same for every database). */
let compiled: { insertRunning: CompiledStatement; complete: CompiledStatement } | undefined;
const usageByPeriod = new Map<string, CompiledStatement>();

function statements(db: Db) {
  compiled ??= {
    insertRunning: compileStatement(
      db.insert(executionLogs).values({
        id: p("id"),
        workspaceId: p("workspaceId"),
        workflowId: p("workflowId"),
        executionId: p("executionId"),
        userId: p("userId"),
        deploymentId: p("deploymentId"),
        status: "running",
        level: "info",
        trigger: p("trigger"),
        startedAt: p("startedAt"),
      }),
    ),
    complete: compileStatement(
      db
        .update(executionLogs)
        .set({
          status: p("status"),
          level: p("level"),
          endedAt: p("endedAt"),
          totalDurationMs: p("totalDurationMs"),
          costTotal: p("costTotal"),
          cost: p("cost"),
          files: null,
          traceSpans: p("traceSpans"),
          finalOutput: p("finalOutput"),
          error: p("error"),
        })
        .where(eq(executionLogs.id, p("id"))),
    ),
  };
  return compiled;
}

export type RunningLog = {
  id: string;
  workspaceId: string;
  workflowId: string;
  executionId: string;
  userId: string;
  deploymentId: string | null;
  trigger: string;
  startedAt: number;
};

export function insertRunningLog(db: Db, log: RunningLog): InStatement {
  return statements(db).insertRunning(log);
}

export type LogCompletion = {
  id: string;
  status: "success" | "error";
  level: Level;
  endedAt: number;
  totalDurationMs: number;
  costTotal: number;
  cost: string;
  traceSpans: string | null;
  finalOutput: string | null;
  error: string | null;
};

export function completeLog(db: Db, completion: LogCompletion): InStatement {
  return statements(db).complete(completion);
}

/** addUsageStatement compiled once per billing period (the period is part of its SQL values). */
export function addUsage(db: Db, userId: string, atMs: number, cost: number): InStatement {
  const period = billingPeriod(atMs);
  let statement = usageByPeriod.get(period);
  if (!statement) {
    if (usageByPeriod.size >= 12) usageByPeriod.clear();
    statement = compileStatement(addUsageStatement(db, p("userId"), atMs, p("cost")));
    usageByPeriod.set(period, statement);
  }
  return statement({ userId, cost });
}

/** Rows for the logs API `model` filter; only runs with AI blocks have any. */
export function insertLogModels(db: Db, logId: string, models: string[]): InStatement {
  return compileStatement(
    db
      .insert(executionLogModels)
      .values(models.map((model) => ({ logId, model })))
      .onConflictDoNothing(),
  )({});
}
