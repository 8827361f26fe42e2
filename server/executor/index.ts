export { normalizeBlockName } from "./block-names.ts";
export { BLOCK_TYPES, type BlockType } from "./blocks/registry.ts";
export { runWorkflow, type RunWorkflowInput, INVALID_WORKFLOW_STATUS } from "./run-workflow.ts";
export { validateWorkflowState } from "./validate-workflow-state.ts";
export type { ExecutionResult, ExecutorDeps, TraceSpan, ValidationIssue, WorkflowState } from "./types.ts";
