import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { GuardedFetch } from "../security/guarded-fetch.ts";
import type { ModelGateway } from "./providers/types.ts";

/** A block of the workflow graph (spec 2.6 `blocks[id]`). */
export type Block = {
  type: string;
  name: string;
  params?: Record<string, unknown>;
  /** A disabled block is not run; blocks reachable only through it are skipped. */
  enabled?: boolean;
  /** Runs the block again when it fails (docs/blocks.md "Retry"). */
  retry?: BlockRetry;
};

/** `tries` attempts at most (the first included), `waitMs` apart. */
export type BlockRetry = { tries: number; waitMs?: number };

export type LoopType = "for" | "forEach" | "while" | "doWhile";

/**
 * A loop section (`loops[id]`): its `nodes` (direct members: block ids and ids of nested loops and
 * parallels) run once per iteration. See docs/blocks.md "Loops".
 */
export type Loop = {
  nodes: string[];
  loopType: LoopType;
  iterations?: number | string;
  forEachItems?: unknown;
  condition?: string;
};

/** A parallel section (`parallels[id]`): its `nodes` run once per branch, branches at the same time. */
export type Parallel = {
  nodes: string[];
  parallelType: "count" | "collection";
  count?: number | string;
  distribution?: unknown;
};

/** A directed edge; `sourceHandle` selects a branch (e.g. `error`, `condition-<id>`). */
export type Edge = { id?: string; source: string; target: string; sourceHandle?: string; targetHandle?: string };

/** The whole editable and deployable state of a workflow (spec 2.6 `workflowState`). */
export type WorkflowState = {
  blocks: Record<string, Block>;
  edges: Edge[];
  loops: Record<string, unknown>;
  parallels: Record<string, unknown>;
};

/** One block run, loop, iteration, parallel or branch (spec 2.5 `executionData.traceSpans`), see docs/blocks.md. */
export type TraceSpan = {
  id: string;
  name: string;
  type: string;
  blockId: string;
  status: "success" | "error";
  startTime: string;
  endTime: string;
  duration: number;
  input: unknown;
  output: unknown;
  error: string | null;
  children: TraceSpan[];
  /** Innermost loop / parallel the span runs in (spans of blocks, iterations and nested sections). */
  loopId?: string;
  parallelId?: string;
  /** Iteration (loop) or branch (parallel) index of the innermost section. */
  iterationIndex?: number;
  /** The block failed and its error edges took over: the run went on. */
  errorHandled?: boolean;
  /** Attempts made by a block with a `retry` setting. */
  attempts?: number;
};

/** One turn of a chat conversation, oldest first. */
export type ChatMessage = { role: "user" | "assistant"; content: string };

/** Tokens a model call used; BYOK-keyed calls cost no model money. */
export type ModelUsage = { model: string; prompt: number; completion: number; byok?: boolean };

export type ExecutionResult = {
  success: boolean;
  /** The run's output: the response block's `data`, else the last block's output. */
  output: unknown;
  error: string | null;
  /** HTTP status to answer a synchronous caller with (response block's `status`, else 200/500). */
  status: number;
  /** Headers the response block sets for the caller. */
  headers: Record<string, string>;
  traceSpans: TraceSpan[];
  modelUsage: ModelUsage[];
  startedAt: number;
  endedAt: number;
};

/** Everything the executor touches outside itself, injected so tests control it. */
export type ExecutorDeps = {
  fetch: GuardedFetch;
  clock: Clock;
  logger: Logger;
  /** Waits between retries; tests pass a fake that records the delays and returns at once. */
  sleep(ms: number): Promise<void>;
  /** [0,1) source for retry jitter. */
  random(): number;
  /** Model providers (agent and router blocks), see docs/models.md. */
  models: ModelGateway;
};

/** A problem found by validateWorkflowState; `blockId` names the block concerned when there is one. */
export type ValidationIssue = { blockId?: string; message: string };
