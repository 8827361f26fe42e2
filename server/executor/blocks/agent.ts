import { checkModelParams, resolvedModelParams } from "../providers/model-block-params.ts";
import { modelCallCost } from "../providers/model-call-cost.ts";
import { toJsonSchemaFormat } from "../providers/response-format.ts";
import type { ModelReply, ModelTokens } from "../providers/types.ts";
import { embed } from "../template.ts";
import type { ChatMessage } from "../types.ts";
import type { BlockHandler, BlockOutcome } from "./block-handler.ts";
import { isWholeReference } from "./param-checks.ts";

/** Read as `<agent.content>`, `<agent.tokens.total>`, `<agent.cost.total>`, ... (docs/models.md). */
export type AgentOutput = {
  /** The reply's text, or the parsed JSON value when a responseFormat is set. */
  content: unknown;
  model: string;
  tokens: ModelTokens;
  cost: { input: number; output: number; total: number };
};

/** One chat completion: system prompt, the chat conversation so far, then the user prompt. */
export const agentBlock: BlockHandler = {
  validate(params) {
    const issues: string[] = [];
    checkModelParams(params, issues);
    const { userPrompt, systemPrompt, responseFormat } = params;
    if (userPrompt === undefined || userPrompt === null || (typeof userPrompt === "string" && userPrompt.trim() === "")) {
      issues.push("userPrompt is required");
    }
    if (systemPrompt !== undefined && systemPrompt !== null && typeof systemPrompt !== "string") {
      issues.push("systemPrompt must be text");
    }
    if (responseFormat !== undefined && !isWholeReference(responseFormat)) {
      const format = toJsonSchemaFormat(responseFormat);
      if (format && "error" in format) issues.push(format.error);
    }
    return issues;
  },

  async run(params, ctx) {
    const settings = resolvedModelParams(params);
    if ("error" in settings) return { output: null, error: settings.error };
    const userPrompt = embed(params.userPrompt);
    if (userPrompt.trim() === "") return { output: null, error: "userPrompt is empty (a reference in it resolved to nothing)" };
    const systemPrompt = params.systemPrompt === undefined || params.systemPrompt === null ? "" : embed(params.systemPrompt);
    const format = toJsonSchemaFormat(params.responseFormat);
    if (format && "error" in format) return { output: null, error: format.error };

    const messages: ChatMessage[] = [
      // Providers reject empty turns; an empty one carries nothing anyway.
      ...(ctx.conversation ?? []).filter((m) => m.content !== ""),
      { role: "user", content: userPrompt },
    ];
    let reply: ModelReply;
    try {
      reply = await ctx.deps.models.complete(
        { ...settings, messages, ...(systemPrompt !== "" ? { systemPrompt } : {}), ...(format ? { responseFormat: format } : {}) },
        { workspaceId: ctx.workspaceId },
      );
    } catch (err) {
      return { output: null, error: err instanceof Error && err.message ? err.message : "The model call failed" };
    }

    const usage = { model: settings.model, prompt: reply.tokens.prompt, completion: reply.tokens.completion, byok: reply.byok };
    const { cost, costNote } = modelCallCost(usage);
    const output: AgentOutput = { content: reply.content, model: reply.model, tokens: reply.tokens, cost };
    const outcome: BlockOutcome = { output, error: null, modelUsage: [usage] };
    if (format) {
      try {
        output.content = JSON.parse(unfenced(reply.content));
      } catch {
        // The call was made and paid for: keep its usage and the raw text for the trace.
        outcome.error = "The model's reply is not valid JSON although a responseFormat was set";
      }
    }
    if (costNote) outcome.traceOutput = { ...output, costNote };
    return outcome;
  },
};

/** Servers without structured output often wrap JSON in a Markdown code fence. */
function unfenced(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return fenced ? fenced[1] : text;
}
