import { z } from "zod";
import { isoTimestamp } from "../common.ts";
import { costSchema, limitsSchema } from "../usage/schemas.ts";
import { workflowStateSchema } from "../workflows/schemas.ts";

export const LOG_LEVELS = ["info", "error"] as const;
export const TRIGGERS = ["api", "webhook", "schedule", "manual", "chat"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type Trigger = (typeof TRIGGERS)[number];

export const logWorkflowSchema = z
  .object({
    id: z.string(),
    name: z.string().describe('"" when the workflow has been deleted since the run'),
    description: z.string(),
  })
  .meta({ id: "LogWorkflow" });

const entryFields = {
  id: z.string().describe("Log id"),
  workflowId: z.string(),
  executionId: z.string(),
  level: z.enum(LOG_LEVELS),
  trigger: z.enum(TRIGGERS),
  startedAt: isoTimestamp,
  endedAt: isoTimestamp,
  totalDurationMs: z.number().int().describe("Milliseconds"),
};

/** Spec 2.4: one item of GET /api/v1/logs. */
export const logEntrySchema = z
  .object({
    ...entryFields,
    cost: z.object({ total: z.number().describe("USD") }),
    files: z.unknown().describe("null, or the run's file data"),
    workflow: logWorkflowSchema.optional().describe("Only with details=full"),
    executionData: z
      .object({
        traceSpans: z.array(z.unknown()).optional().describe("Only with includeTraceSpans=true"),
        finalOutput: z.unknown().optional().describe("Only with includeFinalOutput=true"),
      })
      .optional()
      .describe("Only with includeTraceSpans=true or includeFinalOutput=true"),
  })
  .meta({ id: "LogEntry" });
export type LogEntry = z.infer<typeof logEntrySchema>;

export const executionDataSchema = z.object({
  traceSpans: z.array(z.unknown()),
  finalOutput: z.unknown().describe("The run's output; null when it produced none"),
});

/** Spec 2.5: field `data` of GET /api/v1/logs/{id}. */
export const logDetailSchema = z
  .object({
    ...entryFields,
    cost: costSchema,
    workflow: logWorkflowSchema,
    executionData: executionDataSchema,
    limits: limitsSchema,
  })
  .meta({ id: "LogDetail" });
export type LogDetail = z.infer<typeof logDetailSchema>;

/** Spec 2.6: GET /api/v1/logs/executions/{executionId} (top level, no `data` wrapper). */
export const executionDetailsSchema = z
  .object({
    executionId: z.string(),
    workflowId: z.string(),
    workflowState: workflowStateSchema,
    executionMetadata: z.object({
      trigger: z.enum(TRIGGERS),
      startedAt: isoTimestamp,
      endedAt: isoTimestamp,
      totalDurationMs: z.number().int(),
      cost: costSchema,
    }),
    limits: limitsSchema,
  })
  .meta({ id: "ExecutionDetails" });
export type ExecutionDetails = z.infer<typeof executionDetailsSchema>;
