import { apiBlock } from "./api.ts";
import type { BlockHandler } from "./block-handler.ts";
import { responseBlock } from "./response.ts";
import { startBlock } from "./start.ts";

/** Block types the executor runs (docs/blocks.md). */
export const BLOCK_TYPES = ["start", "api", "response"] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const BLOCK_HANDLERS: Record<BlockType, BlockHandler> = {
  start: startBlock,
  api: apiBlock,
  response: responseBlock,
};

export function blockHandler(type: string): BlockHandler | undefined {
  return Object.hasOwn(BLOCK_HANDLERS, type) ? BLOCK_HANDLERS[type as BlockType] : undefined;
}
