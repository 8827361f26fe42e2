import { z } from "zod";
import { queryBoolean } from "../common.ts";
import { defineProcedure } from "../define.ts";
import { limitsSchema } from "../usage/schemas.ts";
import { commaList, isoTimestampParam } from "./query-params.ts";
import { LOG_LEVELS, logEntrySchema, TRIGGERS } from "./schemas.ts";

export const LIST_LOGS_MAX_LIMIT = 1000;

export const listLogs = defineProcedure({
  meta: {
    openapi: {
      method: "GET",
      path: "/api/v1/logs",
      tags: ["logs"],
      summary: "List completed executions' log entries, newest first by default (docs/logs-api.md)",
    },
  },
  input: z.object({
    workspaceId: z.string().min(1),
    workflowIds: commaList().optional().describe("Comma-separated workflow ids"),
    folderIds: commaList().optional().describe("Comma-separated folder ids: runs of workflows now in those folders"),
    triggers: commaList({ allowed: TRIGGERS }).optional().describe(`Comma-separated, from ${TRIGGERS.join(", ")}`),
    level: z.enum(LOG_LEVELS).optional(),
    startDate: isoTimestampParam.optional().describe("Runs started at or after this instant"),
    endDate: isoTimestampParam.optional().describe("Runs started at or before this instant"),
    executionId: z.string().min(1).optional().describe("Exact execution id"),
    minDurationMs: z.number().int().min(0).optional(),
    maxDurationMs: z.number().int().min(0).optional(),
    minCost: z.number().min(0).optional().describe("USD, inclusive"),
    maxCost: z.number().min(0).optional().describe("USD, inclusive"),
    model: z.string().min(1).optional().describe("Runs that used this model"),
    limit: z.number().int().min(1).max(LIST_LOGS_MAX_LIMIT).default(100),
    cursor: z.string().min(1).max(1024).optional().describe("The nextCursor of the previous page"),
    order: z.enum(["desc", "asc"]).default("desc"),
    details: z.enum(["basic", "full"]).default("basic"),
    includeTraceSpans: queryBoolean.default(false),
    includeFinalOutput: queryBoolean.default(false),
  }),
  output: z.object({
    data: z.array(logEntrySchema),
    nextCursor: z
      .string()
      .nullable()
      .describe("desc: null on the last page. asc: always set; poll with it to receive new entries"),
    limits: limitsSchema,
  }),
});

export type ListLogsInput = z.output<typeof listLogs.input>;
export type ListLogsOutput = z.output<typeof listLogs.output>;
