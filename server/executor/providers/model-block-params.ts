import { isWholeReference } from "../blocks/param-checks.ts";
import { isModelProvider, MODEL_PROVIDERS, type ModelProvider } from "./types.ts";

export const MAX_TEMPERATURE = 2;
/** Anthropic's Messages API accepts 0..1 only. */
const MAX_TEMPERATURE_BY_PROVIDER: Partial<Record<ModelProvider, number>> = { anthropic: 1 };

/** Static checks shared by the blocks that call a model: provider, model, temperature. */
export function checkModelParams(params: Record<string, unknown>, issues: string[]): void {
  const { provider, model, temperature } = params;
  if (!isModelProvider(provider) && !isWholeReference(provider)) {
    issues.push(`provider must be one of ${MODEL_PROVIDERS.join(", ")} (got ${JSON.stringify(provider)})`);
  }
  if (typeof model !== "string" || model.trim() === "") issues.push("model is required (a non-empty string, e.g. gpt-4o)");
  if (temperature !== undefined && !isWholeReference(temperature)) {
    const issue = temperatureIssue(temperature, isModelProvider(provider) ? provider : null);
    if (issue) issues.push(issue);
  }
}

/** Why a (resolved) temperature cannot be sent, or null. */
export function temperatureIssue(value: unknown, provider: ModelProvider | null): string | null {
  if (value === undefined || value === null) return null;
  const max = (provider && MAX_TEMPERATURE_BY_PROVIDER[provider]) ?? MAX_TEMPERATURE;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > max) {
    const suffix = max === MAX_TEMPERATURE ? "" : ` for provider ${provider}`;
    return `temperature must be a number from 0 to ${max}${suffix} (got ${JSON.stringify(value)})`;
  }
  return null;
}

/** The resolved model settings of a run, or why they cannot be used. */
export function resolvedModelParams(
  params: Record<string, unknown>,
): { provider: ModelProvider; model: string; temperature?: number } | { error: string } {
  const { provider, model, temperature } = params;
  if (!isModelProvider(provider)) {
    return { error: `provider must be one of ${MODEL_PROVIDERS.join(", ")} (got ${JSON.stringify(provider ?? null)})` };
  }
  if (typeof model !== "string" || model.trim() === "") return { error: "model is empty (a reference in it resolved to nothing)" };
  const issue = temperatureIssue(temperature, provider);
  if (issue) return { error: issue };
  return { provider, model: model.trim(), ...(typeof temperature === "number" ? { temperature } : {}) };
}
