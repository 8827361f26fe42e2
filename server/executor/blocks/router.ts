import { checkModelParams, resolvedModelParams } from "../providers/model-block-params.ts";
import { modelCallCost } from "../providers/model-call-cost.ts";
import { type ModelReply, type ModelTokens } from "../providers/types.ts";
import { embed } from "../template.ts";
import type { BlockHandler, BlockOutcome } from "./block-handler.ts";

export type Route = { id: string; description: string };

/** Read as `<router.selectedRoute>`, `<router.content>`, ... (docs/models.md). */
export type RouterOutput = {
  selectedRoute: string;
  /** The model's raw answer. */
  content: string;
  model: string;
  tokens: ModelTokens;
  cost: { input: number; output: number; total: number };
};

const ROUTE_ID = /^[A-Za-z0-9_-]+$/;
/** The outgoing edge handle of a route: only edges with this sourceHandle are followed. */
export const routeHandle = (id: string) => `route-${id}`;

/** Asks a model which one of the described routes the prompt belongs to, and follows that branch. */
export const routerBlock: BlockHandler = {
  validate(params) {
    const issues: string[] = [];
    checkModelParams(params, issues);
    const { prompt } = params;
    if (prompt === undefined || prompt === null || (typeof prompt === "string" && prompt.trim() === "")) {
      issues.push("prompt is required");
    }
    issues.push(...routeIssues(params.routes));
    return issues;
  },

  async run(params, ctx) {
    const settings = resolvedModelParams(params);
    if ("error" in settings) return { output: null, error: settings.error };
    const routeProblems = routeIssues(params.routes);
    if (routeProblems.length > 0) return { output: null, error: routeProblems.join("; ") };
    const routes = params.routes as Route[];
    const prompt = embed(params.prompt);
    if (prompt.trim() === "") return { output: null, error: "prompt is empty (a reference in it resolved to nothing)" };

    let reply: ModelReply;
    try {
      reply = await ctx.deps.models.complete(
        { ...settings, systemPrompt: routerInstruction(routes), messages: [{ role: "user", content: prompt }] },
        { workspaceId: ctx.workspaceId },
      );
    } catch (err) {
      return { output: null, error: err instanceof Error && err.message ? err.message : "The model call failed" };
    }

    const usage = { model: settings.model, prompt: reply.tokens.prompt, completion: reply.tokens.completion, byok: reply.byok };
    const { cost, costNote } = modelCallCost(usage);
    const selected = pickRoute(reply.content, routes);
    const output: RouterOutput = { selectedRoute: selected ?? "", content: reply.content, model: reply.model, tokens: reply.tokens, cost };
    const outcome: BlockOutcome = { output, error: null, modelUsage: [usage] };
    if (selected === null) {
      outcome.error = `The model's answer names no route (expected one of ${routes.map((r) => r.id).join(", ")}): ${quote(reply.content)}`;
    } else {
      outcome.selectedHandle = routeHandle(selected);
    }
    if (costNote) outcome.traceOutput = { ...output, costNote };
    return outcome;
  },
};

function routeIssues(routes: unknown): string[] {
  if (!Array.isArray(routes) || routes.length === 0) return ["routes must be a non-empty array of {id, description}"];
  const issues: string[] = [];
  const seen = new Set<string>();
  for (const [i, route] of routes.entries()) {
    const r = (route !== null && typeof route === "object" ? route : {}) as Record<string, unknown>;
    if (typeof r.id !== "string" || !ROUTE_ID.test(r.id)) {
      issues.push(`routes[${i}].id must be letters, digits, _ or - (got ${JSON.stringify(r.id ?? null)})`);
    } else if (seen.has(r.id)) {
      issues.push(`routes[${i}].id "${r.id}" is used by another route; route ids must be unique`);
    } else seen.add(r.id);
    if (typeof r.description !== "string" || r.description.trim() === "") {
      issues.push(`routes[${i}].description is required (it tells the model when to pick the route)`);
    }
  }
  return issues;
}

/** A strict instruction: the answer must be exactly one id, so it can be read back without guessing. */
export function routerInstruction(routes: readonly Route[]): string {
  const list = routes.map((r) => `- ${r.id}: ${r.description.replace(/\s+/g, " ").trim()}`).join("\n");
  return [
    "You are a router. Read the user's message and choose the one route below that fits it best.",
    "Routes (id: when to choose it):",
    list,
    "Answer with the id of exactly one route, exactly as written above, and nothing else: no explanation, no punctuation, no quotes.",
  ].join("\n");
}

/**
 * The route the answer names: the whole answer once quotes, backticks, a trailing period and a
 * `route-` prefix are stripped (exact, then ignoring case); else the one route id that appears as a
 * word in it. null when it names none, or several.
 */
export function pickRoute(answer: string, routes: readonly Route[]): string | null {
  const cleaned = answer
    .trim()
    .replace(/^["'`*\s]+|["'`*.\s]+$/g, "")
    .replace(/^route-/i, "");
  const exact = routes.find((r) => r.id === cleaned) ?? routes.find((r) => r.id.toLowerCase() === cleaned.toLowerCase());
  if (exact) return exact.id;
  const words = new Set(answer.toLowerCase().split(/[^A-Za-z0-9_-]+/).filter(Boolean));
  const named = routes.filter((r) => words.has(r.id.toLowerCase()) || words.has(routeHandle(r.id).toLowerCase()));
  return named.length === 1 ? named[0].id : null;
}

function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(oneLine.length > 200 ? `${oneLine.slice(0, 200)}...` : oneLine);
}
