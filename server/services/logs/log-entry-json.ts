import type { ListLogsInput } from "../../../contract/logs/list-logs.ts";
import { runTiming } from "./log-fields.ts";
import type { LogPageRow } from "./log-query.ts";

const text = JSON.stringify;

/**
 * The JSON text of `rows` as log entries (spec 2.4), exactly what JSON.stringify would write for
 * list-logs' toLogEntry objects, key for key; test/integration/logs-list-route.test.ts compares the two.
 */
export function logEntriesJson(rows: readonly LogPageRow[], input: ListLogsInput): string {
  const full = input.details === "full";
  const withData = input.includeTraceSpans || input.includeFinalOutput;
  let out = "[";
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const timing = runTiming(row);
    if (i > 0) out += ",";
    out +=
      `{"id":${text(row.id)},"workflowId":${text(row.workflowId)},"executionId":${text(row.executionId)},` +
      `"level":${text(row.level)},"trigger":${text(row.trigger)},"startedAt":"${timing.startedAt}",` +
      `"endedAt":"${timing.endedAt}","totalDurationMs":${timing.totalDurationMs},` +
      `"cost":{"total":${text(row.costTotal)}},"files":${text(row.files ?? null)}`;
    if (full) {
      out += `,"workflow":{"id":${text(row.workflowId)},"name":${text(row.workflowName ?? "")},"description":${text(row.workflowDescription ?? "")}}`;
    }
    if (withData) {
      const parts: string[] = [];
      if (input.includeTraceSpans) parts.push(`"traceSpans":${text(Array.isArray(row.traceSpans) ? row.traceSpans : [])}`);
      if (input.includeFinalOutput) parts.push(`"finalOutput":${text(row.finalOutput ?? null)}`);
      out += `,"executionData":{${parts.join(",")}}`;
    }
    out += "}";
  }
  return `${out}]`;
}
