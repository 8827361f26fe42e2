import type { BlockHandler } from "../blocks/block-handler.ts";
import type { CodeTemplate, Template } from "../template.ts";
import type { Block, LoopType } from "../types.ts";

type NodeBase = {
  index: number;
  id: string;
  /** Nodes of the same graph this one has edges to, one entry per edge. */
  targets: Int32Array;
  /** Per target, null for a plain edge or the edge's sourceHandle; null when every edge is plain. */
  handles: ReadonlyArray<string | null> | null;
};

export type BlockNode = NodeBase & {
  kind: "block";
  block: Block;
  handler: BlockHandler;
  enabled: boolean;
  params: Template;
  retry: { tries: number; waitMs: number } | null;
  /** The block has `error` edges: its failures take them instead of failing the run. */
  routesErrors: boolean;
};

export type LoopNode = NodeBase & {
  kind: "loop";
  body: Graph;
  loopType: LoopType;
  /** `for`: the number of iterations. */
  iterations: Template | null;
  /** `forEach`: the items. */
  items: Template | null;
  /** `while` / `doWhile`: the condition, compiled as code of the loop's body. */
  condition: CodeTemplate | null;
  conditionText: string | null;
};

export type ParallelNode = NodeBase & {
  kind: "parallel";
  body: Graph;
  parallelType: "count" | "collection";
  count: Template | null;
  items: Template | null;
};

export type GraphNode = BlockNode | LoopNode | ParallelNode;

/** One runnable graph: the top level (from the start block) or the body of a loop or parallel. */
export type Graph = {
  nodes: GraphNode[];
  /** Nodes started first: the start block, or a body's nodes without incoming edges. */
  roots: Int32Array;
  /** Incoming edges of each node within the graph. */
  inDegree: Int32Array;
  hasSections: boolean;
};
