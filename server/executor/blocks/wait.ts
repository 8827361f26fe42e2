import { toCount } from "../engine/items.ts";
import { MAX_WAIT_MS } from "../engine/limits.ts";
import type { BlockHandler } from "./block-handler.ts";
import { checkInteger, isWholeReference } from "./param-checks.ts";

/** Pauses the branch it is on for `ms` milliseconds (through the executor's sleep). Output `{ waitedMs }`. */
export const waitBlock: BlockHandler = {
  validate(params) {
    const issues: string[] = [];
    if (params.ms === undefined) issues.push(`ms is required (an integer from 0 to ${MAX_WAIT_MS} or a <block.path> reference)`);
    else if (!isWholeReference(params.ms)) checkInteger(params, "ms", 0, MAX_WAIT_MS, issues);
    return issues;
  },
  async run(params, ctx) {
    const checked = toCount(params.ms, "ms", 0, MAX_WAIT_MS);
    if ("error" in checked) return { output: null, error: checked.error };
    if (checked.count > 0) await ctx.deps.sleep(checked.count);
    return { output: { waitedMs: checked.count }, error: null };
  },
};
