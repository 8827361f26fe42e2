import type { ListLogsInput, ListLogsOutput } from "../../../contract/logs/list-logs.ts";
import { parseIsoTimestamp } from "../../../contract/logs/query-params.ts";
import type { LogEntry } from "../../../contract/logs/schemas.ts";
import type { UserContext } from "../../context.ts";
import { getLimits } from "../../limits/execution-limits.ts";
import { requireWorkspacePermission } from "../auth/require-workspace-permission.ts";
import { SETTLE_WINDOW_MS } from "../executions/log-visibility.ts";
import { decodeCursor, encodeCursor, type LogPosition } from "./cursor.ts";
import { logEntriesJson } from "./log-entry-json.ts";
import { runTiming } from "./log-fields.ts";
import { buildLogListStatement, type LogListQuery, type LogPageRow, oldestRunningStatement, readLogPage } from "./log-query.ts";

export { SETTLE_WINDOW_MS };

/** A page of completed runs' log entries in (started_at, id) order, with the cursor to continue. */
export async function listLogs({ ctx, input }: { ctx: UserContext; input: ListLogsInput }): Promise<ListLogsOutput> {
  const { rows, nextCursor, limits } = await readLogsPage({ ctx, input });
  return { data: rows.map((row) => toLogEntry(row, input)), nextCursor, limits };
}

/**
 * The same page as listLogs, as the JSON text of its answer, written without building the entry
 * objects: for the REST route that serves this hottest read (server/http/logs-list-route.ts).
 */
export async function listLogsJson({ ctx, input }: { ctx: UserContext; input: ListLogsInput }): Promise<string> {
  const { rows, nextCursor, limits } = await readLogsPage({ ctx, input });
  return `{"data":${logEntriesJson(rows, input)},"nextCursor":${JSON.stringify(nextCursor)},"limits":${JSON.stringify(limits)}}`;
}

type LogsPage = { rows: LogPageRow[]; nextCursor: string | null; limits: ListLogsOutput["limits"] };

async function readLogsPage({ ctx, input }: { ctx: UserContext; input: ListLogsInput }): Promise<LogsPage> {
  await requireWorkspacePermission(ctx, ctx.actor.userId, input.workspaceId, "read");
  const after = input.cursor ? decodeCursor(input.cursor, input.order) : undefined;
  const startedFrom = input.startDate === undefined ? undefined : (parseIsoTimestamp(input.startDate) as number);
  const startedTo = input.endDate === undefined ? undefined : (parseIsoTimestamp(input.endDate) as number);
  const asc = input.order === "asc";

  const query: LogListQuery = {
    workspaceId: input.workspaceId,
    workflowIds: input.workflowIds,
    folderIds: input.folderIds,
    triggers: input.triggers,
    level: input.level,
    startedFrom,
    startedTo,
    startedBefore: asc ? await ascendingHorizon(ctx, input.workspaceId) : undefined,
    executionId: input.executionId,
    minDurationMs: input.minDurationMs,
    maxDurationMs: input.maxDurationMs,
    minCost: input.minCost,
    maxCost: input.maxCost,
    model: input.model,
    order: input.order,
    after,
    take: input.limit + 1,
    withWorkflow: input.details === "full",
    withTraceSpans: input.includeTraceSpans,
    withFinalOutput: input.includeFinalOutput,
  };
  // One statement after the other: embedded libSQL runs each synchronously anyway, and overlapping
  // them only makes the client open more connections.
  const result = await ctx.database.client.execute(buildLogListStatement(query));
  const limits = await getLimits(ctx, ctx.actor.userId);
  const rows = readLogPage(result.rows[0]?.page, query);
  const page = rows.length > input.limit ? rows.slice(0, input.limit) : rows;
  const last = page.at(-1);

  let nextCursor: string | null;
  if (!asc) {
    nextCursor = rows.length > input.limit && last ? encodeCursor("desc", position(last)) : null;
  } else if (last) {
    nextCursor = encodeCursor("asc", position(last));
  } else {
    // Nothing new yet: hand back a cursor that resumes exactly here, so polling never skips a row.
    nextCursor = input.cursor ?? encodeCursor("asc", { startedAt: startedFrom ?? 0, id: "" });
  }
  return { rows: page, nextCursor, limits };
}

/**
 * Ascending pages stop before the oldest run still in progress (it will complete behind a cursor
 * otherwise) and before now minus the settle window (rows may still be on their way).
 */
async function ascendingHorizon(ctx: UserContext, workspaceId: string): Promise<number> {
  const result = await ctx.database.client.execute(oldestRunningStatement(workspaceId));
  const oldestRunning = result.rows[0]?.started_at;
  const settled = ctx.clock.now() - SETTLE_WINDOW_MS;
  return typeof oldestRunning === "number" ? Math.min(oldestRunning, settled) : settled;
}

const position = (row: LogPageRow): LogPosition => ({ startedAt: row.startedAt, id: row.id });

/** One entry (spec 2.4); logEntriesJson writes the same as JSON text and must stay in step. */
function toLogEntry(row: LogPageRow, input: ListLogsInput): LogEntry {
  const entry: LogEntry = {
    id: row.id,
    workflowId: row.workflowId,
    executionId: row.executionId,
    level: row.level,
    trigger: row.trigger,
    ...runTiming(row),
    cost: { total: row.costTotal },
    files: row.files ?? null,
  };
  if (input.details === "full") {
    entry.workflow = {
      id: row.workflowId,
      name: row.workflowName ?? "",
      description: row.workflowDescription ?? "",
    };
  }
  if (input.includeTraceSpans || input.includeFinalOutput) {
    const executionData: NonNullable<LogEntry["executionData"]> = {};
    if (input.includeTraceSpans) {
      executionData.traceSpans = Array.isArray(row.traceSpans) ? row.traceSpans : [];
    }
    if (input.includeFinalOutput) executionData.finalOutput = row.finalOutput ?? null;
    entry.executionData = executionData;
  }
  return entry;
}
