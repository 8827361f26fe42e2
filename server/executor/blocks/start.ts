import type { BlockHandler } from "./block-handler.ts";

/** The entry point: its output is the trigger input, read by `<start.field>`. */
export const startBlock: BlockHandler = {
  validate: () => [],
  run: (_params, ctx) => ({ output: ctx.input, error: null }),
};
