import type { ExecutorDeps } from "../types.ts";

export type BlockRunContext = {
  deps: ExecutorDeps;
  executionId: string;
  blockId: string;
  /** The trigger input (the start block's output). */
  input: unknown;
};

/** What the caller of a synchronous execution receives when a response block runs. */
export type ResponseSpec = { data: unknown; status: number; headers: Record<string, string> };

export type BlockOutcome = {
  output: unknown;
  /** null on success; a failing block stops the run unless continueOnError is set. */
  error: string | null;
  continueOnError?: boolean;
  response?: ResponseSpec;
  /** What the trace span shows instead of the resolved params / output (e.g. with secrets redacted). */
  traceInput?: unknown;
  traceOutput?: unknown;
};

/** One block type: static checks of its params, and how a run of it behaves. */
export type BlockHandler = {
  /** Problems with the params as stored (references not resolved), as messages without the block label. */
  validate(params: Record<string, unknown>): string[];
  /** Runs with params whose references are resolved. Must not mutate params (they may be shared). */
  run(params: Record<string, unknown>, ctx: BlockRunContext): BlockOutcome | Promise<BlockOutcome>;
};
