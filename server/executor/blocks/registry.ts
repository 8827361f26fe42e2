import { agentBlock } from "./agent.ts";
import { apiBlock } from "./api.ts";
import type { BlockHandler } from "./block-handler.ts";
import { conditionBlock } from "./condition.ts";
import { functionBlock } from "./function.ts";
import { responseBlock } from "./response.ts";
import { routerBlock } from "./router.ts";
import { startBlock } from "./start.ts";
import { variablesBlock } from "./variables.ts";
import { waitBlock } from "./wait.ts";

/** Block types the executor runs (docs/blocks.md). */
export const BLOCK_TYPES = ["start", "api", "response", "agent", "router", "function", "condition", "variables", "wait"] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const BLOCK_HANDLERS: Record<BlockType, BlockHandler> = {
  start: startBlock,
  api: apiBlock,
  response: responseBlock,
  agent: agentBlock,
  router: routerBlock,
  function: functionBlock,
  condition: conditionBlock,
  variables: variablesBlock,
  wait: waitBlock,
};

export function blockHandler(type: string): BlockHandler | undefined {
  return Object.hasOwn(BLOCK_HANDLERS, type) ? BLOCK_HANDLERS[type as BlockType] : undefined;
}
