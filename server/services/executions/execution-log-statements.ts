import type { InStatement } from "@libsql/client";
import type { Db } from "../../db/client.ts";
import { executionLogModels, executionLogs } from "../../db/schema/index.ts";
import { addUsageStatement, billingPeriod } from "../../limits/usage.ts";
import { type CompiledStatement, compileStatement, placeholder as p } from "./compiled-statement.ts";

type Level = "info" | "error";

/** The statements every execution writes, compiled on first use (the SQL is the same for every database). */
let compiled: { insertRunning: CompiledStatement; complete: CompiledStatement } | undefined;

const logColumns = {
  id: p<string>("id"),
  workspaceId: p<string>("workspaceId"),
  workflowId: p<string>("workflowId"),
  executionId: p<string>("executionId"),
  userId: p<string>("userId"),
  deploymentId: p<string | null>("deploymentId"),
  trigger: p<"api">("trigger"),
  startedAt: p<number>("startedAt"),
};
const usageByPeriod = new Map<string, CompiledStatement>();

const completion = {
  status: p<"success" | "error">("status"),
  level: p<Level>("level"),
  endedAt: p<number>("endedAt"),
  totalDurationMs: p<number>("totalDurationMs"),
  costTotal: p<number>("costTotal"),
  cost: p<string>("cost"),
  traceSpans: p<string | null>("traceSpans"),
  finalOutput: p<string | null>("finalOutput"),
  error: p<string | null>("error"),
};

function statements(db: Db) {
  compiled ??= {
    insertRunning: compileStatement(
      db
        .insert(executionLogs)
        .values({ ...logColumns, ownerProcess: p<string | null>("ownerProcess"), status: "running", level: "info" })
        .onConflictDoNothing(),
    ),
    // Completes the `running` row; inserts the whole row if it is missing (never leaves a run unrecorded).
    complete: compileStatement(
      db
        .insert(executionLogs)
        .values({ ...logColumns, ...completion, files: null })
        // started_at too: a queued run's row was written when it was accepted, and only moves later
        // (never behind a cursor, which cannot pass a running row).
        .onConflictDoUpdate({ target: executionLogs.id, set: { ...completion, startedAt: logColumns.startedAt, files: null } }),
    ),
  };
  return compiled;
}

export type RunningLog = {
  id: string;
  /** The process running it (null: a queued run, watched by its job's lease). */
  ownerProcess?: string | null;
  workspaceId: string;
  workflowId: string;
  executionId: string;
  userId: string;
  deploymentId: string | null;
  trigger: string;
  startedAt: number;
};

export function insertRunningLog(db: Db, log: RunningLog): InStatement {
  return statements(db).insertRunning({ ...log, ownerProcess: log.ownerProcess ?? null });
}

export type LogCompletion = RunningLog & {
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

/** Rows for the logs API `model` filter (with the run's workspace and start); only runs with AI blocks have any. */
export function insertLogModels(
  db: Db,
  log: { id: string; workspaceId: string; startedAt: number },
  models: string[],
): InStatement {
  return compileStatement(
    db
      .insert(executionLogModels)
      .values(models.map((model) => ({ logId: log.id, model, workspaceId: log.workspaceId, startedAt: log.startedAt })))
      .onConflictDoNothing(),
  )({});
}
