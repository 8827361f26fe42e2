import type { BlockHandler, BlockOutcome } from "../../../server/executor/blocks/block-handler.ts";
import { type BlockRegistry, builtInBlocks } from "../../../server/executor/engine/block-registry.ts";
import { runWorkflow } from "../../../server/executor/index.ts";
import type { Block, Edge, WorkflowState } from "../../../server/executor/types.ts";
import { testDeps } from "./helpers.ts";

/** The built-in block types plus test-only ones. */
export function registryWith(extra: Record<string, BlockHandler>): BlockRegistry {
  return {
    handler: (type) => (Object.hasOwn(extra, type) ? extra[type] : builtInBlocks.handler(type)),
    types: [...builtInBlocks.types, ...Object.keys(extra)],
  };
}

/** `echo`: outputs its resolved `value` param. */
export const echoBlock: BlockHandler = { validate: () => [], run: (params) => ({ output: params.value ?? null, error: null }) };

/**
 * `gate`: each run waits until the test opens it, so tests decide the order blocks finish in and
 * can see how many run at once.
 */
export function gates() {
  const waiting: Array<{ key: unknown; open: (o: BlockOutcome) => void }> = [];
  let running = 0;
  let maxRunning = 0;
  let arrived: (() => void) | undefined;
  const block: BlockHandler = {
    validate: () => [],
    run: (params) =>
      new Promise<BlockOutcome>((resolve) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        waiting.push({
          key: params.key,
          open: (o) => {
            running--;
            resolve(o);
          },
        });
        arrived?.();
      }),
  };
  return {
    block,
    get waiting() {
      return waiting.map((w) => w.key);
    },
    get maxRunning() {
      return maxRunning;
    },
    /** Resolves once `count` runs are waiting. */
    async until(count: number) {
      while (waiting.length < count) await new Promise<void>((r) => (arrived = r));
    },
    open(key: unknown, output: unknown = key) {
      const at = waiting.findIndex((w) => w.key === key);
      if (at < 0) throw new Error(`no gate waiting for ${String(key)}`);
      const [w] = waiting.splice(at, 1);
      w.open({ output, error: null });
    },
  };
}

/** A state from blocks and `[source, target, sourceHandle?]` edges. */
export function graph(
  blocks: Record<string, Block>,
  edges: Array<[string, string, string?]>,
  sections: { loops?: Record<string, unknown>; parallels?: Record<string, unknown> } = {},
): WorkflowState {
  return {
    blocks: { start: { type: "start", name: "Start" }, ...blocks },
    edges: edges.map(([source, target, sourceHandle]): Edge => (sourceHandle === undefined ? { source, target } : { source, target, sourceHandle })),
    loops: sections.loops ?? {},
    parallels: sections.parallels ?? {},
  };
}

export const echo = (name: string, value: unknown): Block => ({ type: "echo", name, params: { value } });
export const fn = (name: string, code: string): Block => ({ type: "function", name, params: { code } });

export const testBlocks = registryWith({ echo: echoBlock });

export async function run(state: WorkflowState, options: { input?: unknown; blocks?: BlockRegistry } = {}) {
  const t = testDeps();
  const result = await runWorkflow({ state, input: options.input ?? {}, deps: t.deps, executionId: "exec_t", blocks: options.blocks ?? testBlocks });
  return { result, ...t };
}

/** Span tree as `type:name` strings, children indented, for comparing structure. */
export function outline(spans: ReadonlyArray<{ type: string; name: string; children: unknown[] }>, depth = 0): string[] {
  return spans.flatMap((s) => [`${"  ".repeat(depth)}${s.type}:${s.name}`, ...outline(s.children as typeof spans, depth + 1)]);
}
