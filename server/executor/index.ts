export { normalizeBlockName } from "./block-names.ts";
export { BLOCK_TYPES, type BlockType } from "./blocks/registry.ts";
export { runWorkflow, type RunWorkflowInput, INVALID_WORKFLOW_STATUS } from "./run-workflow.ts";
export { validateWorkflowState } from "./validate-workflow-state.ts";
export { type BlockRegistry, builtInBlocks } from "./engine/block-registry.ts";
export type { BlockRetry, ExecutionResult, ExecutorDeps, Loop, Parallel, TraceSpan, ValidationIssue, WorkflowState } from "./types.ts";
