import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../server/db/client.ts";
import {
  executionLogModels,
  executionLogs,
  folders,
  workflowDeployments,
  workflows,
} from "../../server/db/schema/index.ts";

type LogInsert = typeof executionLogs.$inferInsert;

/** A row to insert; anything left out gets a plausible completed-run value. `models` fills execution_log_models. */
export type LogRowSpec = Partial<LogInsert> & { workspaceId: string; workflowId: string; models?: string[] };

let sequence = 0;

/** A complete execution_logs row: a successful api run of 1.5 s costing the base charge. */
export function logRow(spec: LogRowSpec): LogInsert {
  const { models: _models, ...fields } = spec;
  const startedAt = fields.startedAt ?? Date.UTC(2026, 0, 1) + sequence++ * 1000;
  const status = fields.status ?? "success";
  const running = status === "running";
  const duration = fields.totalDurationMs ?? (running ? null : 1500);
  const costTotal = fields.costTotal ?? 0.005;
  return {
    id: `log_${randomUUID().replaceAll("-", "")}`,
    executionId: `exec_${randomUUID().replaceAll("-", "")}`,
    userId: null,
    deploymentId: null,
    level: status === "error" ? "error" : "info",
    trigger: "api",
    endedAt: running || duration === null ? null : startedAt + duration,
    cost: JSON.stringify({ total: costTotal, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} }),
    files: null,
    traceSpans: running ? null : "[]",
    finalOutput: running ? null : "{}",
    error: null,
    ...fields,
    status,
    startedAt,
    totalDurationMs: duration,
    costTotal,
  };
}

// Keeps each INSERT under SQLite's 32,766 bound parameters (19 columns per row).
const ROWS_PER_INSERT = 1_500;

/** Inserts rows straight through drizzle (as the execution recorder would), in multi-row INSERTs. */
export async function insertLogs(db: Db, specs: LogRowSpec[]): Promise<LogInsert[]> {
  const rows = specs.map(logRow);
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db.insert(executionLogs).values(rows.slice(i, i + ROWS_PER_INSERT));
  }
  const models = specs.flatMap((spec, i) =>
    (spec.models ?? []).map((model) => ({ logId: rows[i].id, model, workspaceId: rows[i].workspaceId, startedAt: rows[i].startedAt })),
  );
  for (let i = 0; i < models.length; i += ROWS_PER_INSERT * 5) {
    await db.insert(executionLogModels).values(models.slice(i, i + ROWS_PER_INSERT * 5));
  }
  return rows;
}

export async function insertLog(db: Db, spec: LogRowSpec): Promise<LogInsert> {
  const [row] = await insertLogs(db, [spec]);
  return row;
}

/** Completes a running row in place, as the execution recorder does at the end of a run. */
export async function completeLog(
  db: Db,
  id: string,
  outcome: { status?: "success" | "error"; endedAt: number; costTotal?: number },
): Promise<void> {
  const row = await db.select().from(executionLogs).where(eq(executionLogs.id, id)).get();
  if (!row) throw new Error(`no log ${id}`);
  const status = outcome.status ?? "success";
  await db
    .update(executionLogs)
    .set({
      status,
      level: status === "error" ? "error" : "info",
      endedAt: outcome.endedAt,
      totalDurationMs: outcome.endedAt - row.startedAt,
      costTotal: outcome.costTotal ?? 0.005,
      traceSpans: "[]",
      finalOutput: "{}",
    })
    .where(eq(executionLogs.id, id));
}

export async function insertFolder(db: Db, workspaceId: string, name = "Folder"): Promise<string> {
  const id = `fld_${randomUUID().replaceAll("-", "")}`;
  await db.insert(folders).values({ id, workspaceId, name, createdAt: Date.now() });
  return id;
}

const EMPTY_STATE = JSON.stringify({ blocks: {}, edges: [], loops: {}, parallels: {} });

export async function insertWorkflow(
  db: Db,
  fields: { workspaceId: string; folderId?: string | null; name?: string; description?: string; id?: string },
): Promise<string> {
  const id = fields.id ?? `wf_${randomUUID().replaceAll("-", "")}`;
  const now = Date.now();
  await db.insert(workflows).values({
    id,
    workspaceId: fields.workspaceId,
    folderId: fields.folderId ?? null,
    name: fields.name ?? "Workflow",
    description: fields.description ?? "",
    state: EMPTY_STATE,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** A deployed snapshot of the workflow; returns the deployment id to put in a log's deploymentId. */
export async function insertDeployment(db: Db, workflowId: string, state: unknown, version = 1): Promise<string> {
  const id = `dep_${randomUUID().replaceAll("-", "")}`;
  await db.insert(workflowDeployments).values({
    id,
    workflowId,
    version,
    state: JSON.stringify(state),
    stateVersion: version,
    createdAt: Date.now(),
  });
  return id;
}
