import { z } from "zod";
import { isoTimestamp } from "../common.ts";

export const jobStatusSchema = z.enum(["queued", "processing", "completed", "failed"]);

export const jobStatusResponseSchema = z
  .object({
    success: z.boolean().describe("false once the job has failed"),
    jobId: z.string(),
    status: jobStatusSchema.describe("completed: the run finished successfully; failed: it finished with an error or could not be run"),
    executionId: z.string().nullable().describe("The execution the job runs (its log: GET /api/v1/logs/executions/{executionId})"),
    output: z.unknown().optional().describe("The run's output, once completed"),
    error: z.string().optional().describe("Why the run failed, once failed"),
    metadata: z.object({
      createdAt: isoTimestamp,
      startedAt: isoTimestamp.nullable(),
      completedAt: isoTimestamp.nullable(),
      duration: z.number().int().nullable().describe("Milliseconds from start to completion"),
      attempts: z.number().int().describe("Times a worker took the job (more than one after a worker was lost)"),
    }),
  })
  .meta({ id: "JobStatus" });

export type JobStatusResponse = z.infer<typeof jobStatusResponseSchema>;
