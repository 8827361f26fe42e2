import type { ModelUsage } from "../executor/types.ts";
import priceTable from "./model-prices.json" with { type: "json" };

/** USD charged for every execution, with or without AI blocks (spec 8.4). */
export const BASE_EXECUTION_CHARGE = 0.005;

type TokenCounts = { prompt: number; completion: number; total: number };

/** The cost of one execution (spec 2.3); schema: `costSchema` in contract/usage/schemas.ts. */
export type CostObject = {
  total: number;
  tokens: TokenCounts;
  models: Record<string, { input: number; output: number; total: number; tokens: TokenCounts }>;
};

export type ModelPrice = { input: number; output: number };

const PRICES: Record<string, ModelPrice> = priceTable.models;

/**
 * Per-million-token list prices of `model`, or null when unknown (it then costs nothing). Also finds
 * `provider/model` names and dated snapshots such as `claude-sonnet-4-5-20250929`.
 */
export function modelPrice(model: string): ModelPrice | null {
  const bare = model.trim().toLowerCase().replace(/^[\w-]+\//, "");
  return PRICES[bare] ?? PRICES[bare.replace(/-\d{8}$|-\d{4}-\d{2}-\d{2}$/, "")] ?? null;
}

/**
 * Sums the model calls of one execution: base charge + Σ (prompt × input + completion × output) / 1e6.
 * BYOK calls are paid by the workspace's own key: their tokens count, their money does not.
 */
export function calculateCost(usage: ModelUsage[]): CostObject {
  const models: CostObject["models"] = {};
  const tokens: TokenCounts = { prompt: 0, completion: 0, total: 0 };
  for (const u of usage) {
    const prompt = count(u.prompt);
    const completion = count(u.completion);
    const price = u.byok ? null : modelPrice(u.model);
    const entry = (models[u.model] ??= {
      input: 0,
      output: 0,
      total: 0,
      tokens: { prompt: 0, completion: 0, total: 0 },
    });
    if (price) {
      entry.input = usd(entry.input + (prompt * price.input) / 1e6);
      entry.output = usd(entry.output + (completion * price.output) / 1e6);
      entry.total = usd(entry.input + entry.output);
    }
    entry.tokens.prompt += prompt;
    entry.tokens.completion += completion;
    entry.tokens.total += prompt + completion;
    tokens.prompt += prompt;
    tokens.completion += completion;
    tokens.total += prompt + completion;
  }
  const modelCost = Object.values(models).reduce((sum, m) => sum + m.total, 0);
  return { total: usd(BASE_EXECUTION_CHARGE + modelCost), tokens, models };
}

/** Token counts from providers are trusted only as non-negative integers. */
function count(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

/** USD rounded to 1e-9 so sums of binary fractions (0.1 + 0.2) come out as written. */
function usd(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}
