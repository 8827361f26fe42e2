import { calculateCost, modelPrice } from "../../limits/cost.ts";
import type { ModelUsage } from "../types.ts";

/** USD of one model call, as the run's cost counts it. */
export type ModelCallCost = { input: number; output: number; total: number };

/**
 * The model money of one call (the execution's base charge is not part of it), priced exactly as
 * calculateCost prices the run, plus a note when the call costs nothing for a reason worth showing.
 */
export function modelCallCost(usage: ModelUsage): { cost: ModelCallCost; costNote?: string } {
  const entry = calculateCost([usage]).models[usage.model];
  const cost = { input: entry?.input ?? 0, output: entry?.output ?? 0, total: entry?.total ?? 0 };
  if (usage.byok) return { cost, costNote: "Paid with the workspace's own provider key (BYOK): no model cost is charged" };
  if (modelPrice(usage.model) === null) {
    return { cost, costNote: `No price is known for model "${usage.model}": its model cost is counted as 0` };
  }
  return { cost };
}
