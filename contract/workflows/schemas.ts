import { z } from "zod";
import { isoTimestamp } from "../common.ts";

/** A block of the graph; keys beyond these (e.g. editor positions) are kept as sent. */
export const blockSchema = z
  .looseObject({
    type: z.string().min(1).describe("Block type: start, api, response, ..."),
    name: z.string().describe("Display name; other blocks reference the block's output as <name.path>"),
    params: z.record(z.string(), z.unknown()).optional().describe("Settings of the block, by type"),
    enabled: z.boolean().optional().describe("A disabled block is not run"),
  })
  .meta({ id: "Block" });

export const edgeSchema = z
  .looseObject({
    id: z.string().optional(),
    source: z.string().min(1).describe("Id of the block the edge leaves"),
    target: z.string().min(1).describe("Id of the block the edge enters"),
    sourceHandle: z.string().optional().describe("Branch of the source, e.g. error"),
    targetHandle: z.string().optional(),
  })
  .meta({ id: "Edge" });

/** The editable and deployable graph (spec 2.6 `workflowState`). */
export const workflowStateSchema = z
  .object({
    blocks: z.record(z.string(), blockSchema).describe("Blocks keyed by block id"),
    edges: z.array(edgeSchema).default([]),
    loops: z.record(z.string(), z.unknown()).default({}),
    parallels: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: "WorkflowState" });

const workflowFields = {
  id: z.string(),
  workspaceId: z.string(),
  folderId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  isDeployed: z.boolean(),
  deployedAt: isoTimestamp.nullable().describe("When the live version was deployed; null when never deployed"),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
};

export const workflowSummarySchema = z.object(workflowFields).meta({ id: "WorkflowSummary" });

export const workflowSchema = z.object({ ...workflowFields, state: workflowStateSchema }).meta({ id: "Workflow" });

export const deploymentSchema = z
  .object({
    id: z.string().describe("Deployment id"),
    workflowId: z.string(),
    version: z.number().int().describe("1 for the first deploy, then one more per deploy"),
    deployedAt: isoTimestamp,
  })
  .meta({ id: "Deployment" });

export const deploymentStatusSchema = z
  .object({
    isDeployed: z.boolean(),
    deployedAt: isoTimestamp.nullable(),
    needsRedeployment: z.boolean().describe("The state was saved since the live version was deployed"),
  })
  .meta({ id: "DeploymentStatus" });

export const executionResponseSchema = z
  .object({
    success: z.boolean(),
    executionId: z.string(),
    output: z.unknown().describe("The response block's data, else the last block's output"),
    error: z.string().nullable(),
    metadata: z.object({
      startTime: isoTimestamp,
      endTime: isoTimestamp,
      duration: z.number().int().describe("Milliseconds"),
    }),
  })
  .meta({ id: "ExecutionResponse" });

export const asyncExecutionResponseSchema = z
  .object({
    success: z.literal(true),
    async: z.literal(true),
    jobId: z.string(),
    executionId: z.string().describe("The id the run's log will carry"),
    message: z.string(),
    statusUrl: z.string().describe("GET it for the job's status and result"),
  })
  .meta({ id: "AsyncExecutionResponse" });

export type WorkflowStateInput = z.input<typeof workflowStateSchema>;
export type Workflow = z.infer<typeof workflowSchema>;
export type WorkflowSummary = z.infer<typeof workflowSummarySchema>;
export type Deployment = z.infer<typeof deploymentSchema>;
export type DeploymentStatus = z.infer<typeof deploymentStatusSchema>;
export type ExecutionResponse = z.infer<typeof executionResponseSchema>;
export type AsyncExecutionResponse = z.infer<typeof asyncExecutionResponseSchema>;
