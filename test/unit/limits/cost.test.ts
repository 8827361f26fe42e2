import { describe, expect, it } from "vitest";
import { BASE_EXECUTION_CHARGE, calculateCost, modelPrice } from "../../../server/limits/cost.ts";
import prices from "../../../server/limits/model-prices.json" with { type: "json" };

describe("calculateCost", () => {
  it("charges only the base for a run without model usage", () => {
    expect(BASE_EXECUTION_CHARGE).toBe(0.005);
    expect(calculateCost([])).toEqual({ total: 0.005, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} });
  });

  it("prices tokens per million at the table's list prices", () => {
    // gpt-4o: 2.50 in / 10.00 out per 1M tokens.
    const cost = calculateCost([{ model: "gpt-4o", prompt: 1_000, completion: 500 }]);
    expect(cost).toEqual({
      total: 0.0125, // 0.005 + 0.0025 + 0.005
      tokens: { prompt: 1_000, completion: 500, total: 1_500 },
      models: {
        "gpt-4o": { input: 0.0025, output: 0.005, total: 0.0075, tokens: { prompt: 1_000, completion: 500, total: 1_500 } },
      },
    });
  });

  it("sums several calls per model and several models without float noise", () => {
    const cost = calculateCost([
      { model: "gpt-4o-mini", prompt: 1_000, completion: 1_000 }, // 0.00015 + 0.0006
      { model: "claude-sonnet-4-5", prompt: 2_000, completion: 300 }, // 0.006 + 0.0045
      { model: "gpt-4o-mini", prompt: 1_000, completion: 1_000 },
    ]);
    expect(cost.models["gpt-4o-mini"]).toEqual({
      input: 0.0003,
      output: 0.0012,
      total: 0.0015,
      tokens: { prompt: 2_000, completion: 2_000, total: 4_000 },
    });
    expect(cost.models["claude-sonnet-4-5"]).toMatchObject({ input: 0.006, output: 0.0045, total: 0.0105 });
    expect(cost.tokens).toEqual({ prompt: 4_000, completion: 2_300, total: 6_300 });
    expect(cost.total).toBe(0.017); // 0.005 + 0.0015 + 0.0105, exactly
  });

  it("follows formula modelCost = (in x inPrice + out x outPrice) / 1e6 for every table entry", () => {
    for (const [model, p] of Object.entries(prices.models)) {
      const cost = calculateCost([{ model, prompt: 1_000_000, completion: 1_000_000 }]);
      expect(cost.models[model]).toMatchObject({ input: p.input, output: p.output });
      expect(cost.total).toBeCloseTo(0.005 + p.input + p.output, 9);
    }
  });

  it("costs nothing in model money for an unknown model but still counts its tokens", () => {
    const cost = calculateCost([{ model: "my-local-llama", prompt: 123, completion: 45 }]);
    expect(cost.total).toBe(0.005);
    expect(cost.models["my-local-llama"]).toEqual({
      input: 0,
      output: 0,
      total: 0,
      tokens: { prompt: 123, completion: 45, total: 168 },
    });
  });

  it("counts BYOK tokens but charges no model money for them", () => {
    const cost = calculateCost([
      { model: "gpt-4o", prompt: 1_000_000, completion: 1_000_000, byok: true },
      { model: "gpt-4o", prompt: 1_000, completion: 0 },
    ]);
    expect(cost.models["gpt-4o"]).toEqual({
      input: 0.0025,
      output: 0,
      total: 0.0025,
      tokens: { prompt: 1_001_000, completion: 1_000_000, total: 2_001_000 },
    });
    expect(cost.total).toBe(0.0075);
  });

  it("ignores nonsense token counts", () => {
    const cost = calculateCost([{ model: "gpt-4o", prompt: -5, completion: Number.NaN }]);
    expect(cost.total).toBe(0.005);
    expect(cost.tokens).toEqual({ prompt: 0, completion: 0, total: 0 });
  });
});

describe("modelPrice", () => {
  it("finds provider-prefixed and dated model names, and nothing for unknown ones", () => {
    expect(modelPrice("gpt-4o")).toEqual(expect.objectContaining({ input: 2.5, output: 10 }));
    expect(modelPrice("openai/gpt-4o")).toEqual(expect.objectContaining({ input: 2.5, output: 10 }));
    expect(modelPrice("claude-sonnet-4-5-20250929")).toEqual(expect.objectContaining({ input: 3, output: 15 }));
    expect(modelPrice("gpt-4o-2024-08-06")).toEqual(expect.objectContaining({ input: 2.5, output: 10 }));
    expect(modelPrice("no-such-model")).toBeNull();
  });

  it("has a dated table covering openai, anthropic and google", () => {
    expect(prices.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const providers = new Set(Object.values(prices.models).map((m) => m.provider));
    expect([...providers].sort()).toEqual(["anthropic", "google", "openai"]);
  });
});
