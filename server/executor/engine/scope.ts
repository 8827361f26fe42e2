import type { ResponseSpec } from "../blocks/block-handler.ts";
import type { ChatMessage, ExecutorDeps, ModelUsage } from "../types.ts";

/** What one run shares across all its graphs, iterations and branches. */
export type RunState = {
  readonly deps: ExecutorDeps;
  readonly executionId: string;
  readonly workspaceId: string;
  /** The trigger input: the start block's output and the `input` of code. */
  readonly input: unknown;
  readonly conversation: readonly ChatMessage[] | undefined;
  /** Workflow variables (`<variable.name>`), written by variables blocks; no prototype. */
  readonly variables: Record<string, unknown>;
  /** The first unhandled failure; once set, nothing new starts. */
  failure: string | null;
  /** Blocks started so far (MAX_BLOCK_RUNS, BLOCK_RUNS_PER_YIELD). */
  blockRuns: number;
  response: ResponseSpec | undefined;
  /** Output of the block (or section) that finished last. */
  lastOutput: unknown;
  /** Model usage summed per model and key kind. */
  readonly usage: Map<string, { model: string; prompt: number; completion: number; byok?: boolean }>;
};

/** Where the spans of a scope sit: the innermost loop and parallel around it, and its index there. */
export type SpanTags = { readonly loopId?: string; readonly parallelId?: string; readonly iterationIndex: number };

/**
 * One run of one graph: the whole workflow, one loop iteration, or one parallel branch. Outputs are
 * kept per node of the graph; a section's node keeps, in `inner`, the scope of its last iteration
 * (loops) or the merge of its branches (parallels), which references from outside read.
 */
export class Scope {
  /** Index of the last node (in graph order) that ran and followed no edge; -1 before any. */
  lastEnd = -1;

  constructor(
    readonly values: unknown[],
    readonly inner: Array<Scope | undefined> | null,
    readonly parent: Scope | null,
    readonly run: RunState,
    /** `<loop>` / `<parallel>` values of this iteration or branch; null for the top level. */
    readonly frame: Readonly<Record<string, unknown>> | null,
    readonly tags: SpanTags | null,
  ) {}

  /** A scope for a graph of `size` nodes, nothing run yet. */
  static fresh(size: number, hasSections: boolean, parent: Scope | null, run: RunState, frame: Scope["frame"], tags: SpanTags | null): Scope {
    return new Scope(new Array(size), hasSections ? new Array(size) : null, parent, run, frame, tags);
  }
}

/** Adds one block's model calls to the run's totals. */
export function addModelUsage(run: RunState, usage: readonly ModelUsage[]): void {
  for (const u of usage) {
    const byok = u.byok === true;
    const key = `${byok ? "1" : "0"}${u.model}`;
    const total = run.usage.get(key);
    const prompt = Number.isFinite(u.prompt) ? u.prompt : 0;
    const completion = Number.isFinite(u.completion) ? u.completion : 0;
    if (total) {
      total.prompt += prompt;
      total.completion += completion;
    } else run.usage.set(key, byok ? { model: u.model, prompt, completion, byok } : { model: u.model, prompt, completion });
  }
}
