import type { ChatMessage, ExecutorDeps, ModelUsage } from "../types.ts";

export type BlockRunContext = {
  deps: ExecutorDeps;
  executionId: string;
  /** The workspace the run belongs to (provider keys, BYOK lookups). */
  workspaceId: string;
  blockId: string;
  /** The trigger input (the start block's output). */
  input: unknown;
  /** Earlier turns of the chat conversation when the run was started by the chat trigger. */
  conversation?: readonly ChatMessage[];
  /** The run's workflow variables (`<variable.name>`); the variables block writes them. */
  variables?: Record<string, unknown>;
};

/** What the caller of a synchronous execution receives when a response block runs. */
export type ResponseSpec = { data: unknown; status: number; headers: Record<string, string> };

export type BlockOutcome = {
  output: unknown;
  /** null on success; a failing block stops the run unless continueOnError is set. */
  error: string | null;
  continueOnError?: boolean;
  response?: ResponseSpec;
  /**
   * The outgoing branch this run chose (`condition-<id>`, `condition-else`, `route-<id>`): only edges
   * with that sourceHandle are followed, the block's other branch edges are skipped.
   */
  selectedHandle?: string;
  /** Model calls this block made; summed into the run's cost. */
  modelUsage?: ModelUsage[];
  /** What the trace span shows instead of the resolved params / output (e.g. with secrets redacted). */
  traceInput?: unknown;
  traceOutput?: unknown;
};

/** One block type: static checks of its params, and how a run of it behaves. */
export type BlockHandler = {
  /** Problems with the params as stored (references not resolved), as messages without the block label. */
  validate(params: Record<string, unknown>): string[];
  /**
   * Params holding JavaScript, as dotted paths (`code`, `conditions.*.expression`; `*` = any key or
   * index). Their references become sandbox globals, so they arrive in run() as SandboxCode
   * (template.ts), never as text with values pasted in.
   */
  codePaths?: readonly string[];
  /** Runs with params whose references are resolved. Must not mutate params (they may be shared). */
  run(params: Record<string, unknown>, ctx: BlockRunContext): BlockOutcome | Promise<BlockOutcome>;
};
