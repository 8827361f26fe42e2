import type { BlockHandler } from "../blocks/block-handler.ts";
import { blockHandler, BLOCK_TYPES } from "../blocks/registry.ts";

/**
 * The block types a run may use. runWorkflow and validateWorkflowState take the built-in set unless
 * given another (an embedding application, or a test, adding its own types).
 */
export type BlockRegistry = {
  handler(type: string): BlockHandler | undefined;
  readonly types: readonly string[];
};

export const builtInBlocks: BlockRegistry = { handler: blockHandler, types: BLOCK_TYPES };
