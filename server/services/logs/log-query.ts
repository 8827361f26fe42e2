import type { InStatement, InValue } from "@libsql/client";
import type { LogLevel, Trigger } from "../../../contract/logs/schemas.ts";
import type { LogOrder, LogPosition } from "./cursor.ts";

/** Everything that narrows a page of log entries; all of it is applied in SQL. */
export type LogListQuery = {
  workspaceId: string;
  workflowIds?: string[];
  folderIds?: string[];
  triggers?: Trigger[];
  level?: LogLevel;
  /** Inclusive bounds on started_at, epoch ms. */
  startedFrom?: number;
  startedTo?: number;
  /** Exclusive upper bound on started_at (the asc settle horizon). */
  startedBefore?: number;
  executionId?: string;
  minDurationMs?: number;
  maxDurationMs?: number;
  minCost?: number;
  maxCost?: number;
  model?: string;
  order: LogOrder;
  /** Answer entries strictly after this position, in `order`. */
  after?: LogPosition;
  /** Rows to fetch (the page size plus one, to tell whether another page follows). */
  take: number;
  withWorkflow: boolean;
  withTraceSpans: boolean;
  withFinalOutput: boolean;
};

/** One entry of a page, JSON columns already parsed. */
export type LogPageRow = {
  id: string;
  workflowId: string;
  executionId: string;
  level: LogLevel;
  trigger: Trigger;
  startedAt: number;
  endedAt: number | null;
  totalDurationMs: number | null;
  costTotal: number;
  files: unknown;
  traceSpans?: unknown;
  finalOutput?: unknown;
  workflowName?: string | null;
  workflowDescription?: string | null;
};

/** A stored JSON text column as a JSON value (NULL when empty or unreadable, so one bad row cannot fail a page). */
const jsonColumn = (column: string) => `CASE WHEN json_valid(${column}) THEN json(${column}) END`;

/**
 * One SELECT over execution_logs. The page is a keyset range on the (workspace_id, started_at, id)
 * index: the position is compared as a row value, `(started_at, id) < (?, ?)`, which SQLite turns
 * into an index range; the equivalent OR form makes it scan. Running rows are never listed.
 */
export function buildLogListStatement(q: LogListQuery): InStatement {
  // With a model filter the page is read from the models table's own keyset index
  // (workspace_id, model, started_at, log_id): the same order, without testing every run for the model.
  const byModel = q.model !== undefined;
  const k = byModel
    ? { workspace: "m.workspace_id", started: "m.started_at", id: "m.log_id" }
    : { workspace: "l.workspace_id", started: "l.started_at", id: "l.id" };
  const args: InValue[] = [q.workspaceId];
  const where = [`${k.workspace} = ?`, "l.status <> 'running'"];
  const placeholders = (values: readonly InValue[]) => {
    args.push(...values);
    return values.map(() => "?").join(", ");
  };
  if (q.workflowIds?.length) where.push(`l.workflow_id IN (${placeholders(q.workflowIds)})`);
  if (q.folderIds?.length) {
    // Folder membership is read now, not at run time: the filter means "workflows in these folders".
    args.push(q.workspaceId);
    where.push(
      `l.workflow_id IN (SELECT f.id FROM workflows f WHERE f.workspace_id = ? AND f.folder_id IN (${placeholders(q.folderIds)}))`,
    );
  }
  if (q.triggers?.length) where.push(`l.trigger IN (${placeholders(q.triggers)})`);
  if (q.level) where.push(`l.level = ${placeholders([q.level])}`);
  if (q.startedFrom !== undefined) where.push(`${k.started} >= ${placeholders([q.startedFrom])}`);
  if (q.startedTo !== undefined) where.push(`${k.started} <= ${placeholders([q.startedTo])}`);
  if (q.startedBefore !== undefined) where.push(`${k.started} < ${placeholders([q.startedBefore])}`);
  if (q.executionId !== undefined) where.push(`l.execution_id = ${placeholders([q.executionId])}`);
  if (q.minDurationMs !== undefined) where.push(`l.total_duration_ms >= ${placeholders([q.minDurationMs])}`);
  if (q.maxDurationMs !== undefined) where.push(`l.total_duration_ms <= ${placeholders([q.maxDurationMs])}`);
  if (q.minCost !== undefined) where.push(`l.cost_total >= ${placeholders([q.minCost])}`);
  if (q.maxCost !== undefined) where.push(`l.cost_total <= ${placeholders([q.maxCost])}`);
  if (q.model !== undefined) where.push(`m.model = ${placeholders([q.model])}`);
  const asc = q.order === "asc";
  if (q.after) {
    where.push(`(${k.started}, ${k.id}) ${asc ? ">" : "<"} (${placeholders([q.after.startedAt, q.after.id])})`);
  }

  // The page comes back as ONE JSON text built by SQLite: handing over a few thousand separate
  // cells costs far more (per-cell crossing into JS) than the query itself.
  const columns = [
    "l.id AS id",
    "l.workflow_id AS workflow_id",
    "l.execution_id AS execution_id",
    "l.level AS level",
    "l.trigger AS trigger",
    "l.started_at AS started_at",
    "l.ended_at AS ended_at",
    "l.total_duration_ms AS total_duration_ms",
    "l.cost_total AS cost_total",
    "l.files AS files",
  ];
  const cells = [
    "id",
    "workflow_id",
    "execution_id",
    "level",
    "trigger",
    "started_at",
    "ended_at",
    "total_duration_ms",
    // 17 significant digits: the REAL read back in JS is exactly the stored one.
    "printf('%!.17g', cost_total)",
    jsonColumn("files"),
  ];
  if (q.withTraceSpans) {
    columns.push("l.trace_spans AS trace_spans");
    cells.push(jsonColumn("trace_spans"));
  }
  if (q.withFinalOutput) {
    columns.push("l.final_output AS final_output");
    cells.push(jsonColumn("final_output"));
  }
  let from = byModel ? "execution_log_models m JOIN execution_logs l ON l.id = m.log_id" : "execution_logs l";
  if (q.withWorkflow) {
    columns.push("w.name AS workflow_name", "w.description AS workflow_description");
    cells.push("workflow_name", "workflow_description");
    from += " LEFT JOIN workflows w ON w.id = l.workflow_id";
  }
  const direction = asc ? "ASC" : "DESC";
  args.push(q.take);
  const page =
    `SELECT ${columns.join(", ")} FROM ${from} WHERE ${where.join(" AND ")} ` +
    `ORDER BY ${k.started} ${direction}, ${k.id} ${direction} LIMIT ?`;
  // json_group_array's element order is not guaranteed: readLogPage puts the entries back in order.
  return { sql: `SELECT json_group_array(json_array(${cells.join(", ")})) AS page FROM (${page})`, args };
}

/** The entries of the page statement's single JSON cell, in the query's order. */
export function readLogPage(
  pageJson: unknown,
  q: Pick<LogListQuery, "order" | "withTraceSpans" | "withFinalOutput" | "withWorkflow">,
): LogPageRow[] {
  const tuples = JSON.parse(typeof pageJson === "string" ? pageJson : "[]") as unknown[][];
  const rows = tuples.map((t) => {
    const row: LogPageRow = {
      id: t[0] as string,
      workflowId: t[1] as string,
      executionId: t[2] as string,
      level: t[3] as LogLevel,
      trigger: t[4] as Trigger,
      startedAt: t[5] as number,
      endedAt: t[6] as number | null,
      totalDurationMs: t[7] as number | null,
      costTotal: Number(t[8]),
      files: t[9],
    };
    let i = 10;
    if (q.withTraceSpans) row.traceSpans = t[i++];
    if (q.withFinalOutput) row.finalOutput = t[i++];
    if (q.withWorkflow) {
      row.workflowName = t[i++] as string | null;
      row.workflowDescription = t[i++] as string | null;
    }
    return row;
  });
  const sign = q.order === "asc" ? 1 : -1;
  return rows.sort((a, b) => sign * (a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
}

/** The oldest started_at among the workspace's runs still in progress (index execution_logs_running_idx). */
export function oldestRunningStatement(workspaceId: string): InStatement {
  return {
    sql: "SELECT min(started_at) AS started_at FROM execution_logs WHERE workspace_id = ? AND status = 'running'",
    args: [workspaceId],
  };
}
