import { describe, expect, it } from "vitest";
import { agentBlock } from "../../../server/executor/blocks/agent.ts";
import { runWorkflow, validateWorkflowState } from "../../../server/executor/index.ts";
import type { ResolveProviderKey } from "../../../server/executor/providers/resolve-provider-key.ts";
import type { Block, ChatMessage, WorkflowState } from "../../../server/executor/types.ts";
import { useFakeProvider } from "../../helpers/fake-provider.ts";
import { chain, response, start, testDeps } from "./helpers.ts";

const fakeOf = useFakeProvider();

const agent = (params: Record<string, unknown>, name = "Agent", id = "agent"): [string, Block] => [id, { type: "agent", name, params }];

async function run(
  state: WorkflowState,
  options: { input?: unknown; conversation?: ChatMessage[]; resolveProviderKey?: ResolveProviderKey; keys?: boolean } = {},
) {
  const config = fakeOf().config;
  const modelProviders =
    options.keys === false
      ? { openai: { baseUrl: config.openai.baseUrl }, anthropic: { baseUrl: config.anthropic.baseUrl }, google: { baseUrl: config.google.baseUrl } }
      : config;
  const t = testDeps({ modelProviders, resolveProviderKey: options.resolveProviderKey });
  const result = await runWorkflow({
    state,
    input: options.input ?? {},
    deps: t.deps,
    executionId: "exec_agent",
    workspaceId: "ws_agent",
    conversation: options.conversation,
  });
  return { result, ...t };
}

describe("agent block", () => {
  it("asks the model with the resolved prompts and outputs content, model, tokens and cost", async () => {
    fakeOf().script({ content: "Hi Ada!", tokens: { prompt: 1_000, completion: 500 } });
    const state = chain(
      start(),
      agent({ provider: "openai", model: "gpt-4o", systemPrompt: "You greet <start.lang> speakers.", userPrompt: "Greet <start.name>", temperature: 0.2 }),
      response({ data: { text: "<agent.content>", total: "<agent.tokens.total>", cost: "<agent.cost.total>" } }),
    );
    const { result } = await run(state, { input: { name: "Ada", lang: "English" } });
    expect(result).toMatchObject({ success: true, output: { text: "Hi Ada!", total: 1_500, cost: 0.0075 } });
    expect(fakeOf().requests[0].body).toEqual({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "You greet English speakers." },
        { role: "user", content: "Greet Ada" },
      ],
      temperature: 0.2,
    });
    // gpt-4o: 2.50 in / 10.00 out per 1M tokens.
    expect(result.traceSpans[1]).toMatchObject({
      type: "agent",
      status: "success",
      output: { content: "Hi Ada!", model: "gpt-4o", tokens: { prompt: 1_000, completion: 500, total: 1_500 }, cost: { input: 0.0025, output: 0.005, total: 0.0075 } },
    });
    expect(result.traceSpans[1].output).not.toHaveProperty("costNote");
    expect(result.modelUsage).toMatchObject([{ model: "gpt-4o", prompt: 1_000, completion: 500 }]);
  });

  it("returns the call's model usage in its outcome (what the run's cost sums)", async () => {
    fakeOf().script({ tokens: { prompt: 3, completion: 4 } });
    const t = testDeps({ modelProviders: fakeOf().config });
    const outcome = await agentBlock.run(
      { provider: "anthropic", model: "claude-haiku-4-5", userPrompt: "hello" },
      { deps: t.deps, executionId: "e", workspaceId: "ws", blockId: "agent", input: {} },
    );
    expect(outcome).toMatchObject({ error: null, modelUsage: [{ model: "claude-haiku-4-5", prompt: 3, completion: 4, byok: false }] });
  });

  it("reads JSON wrapped in a Markdown code fence when a responseFormat is set", async () => {
    fakeOf().script({ content: '```json\n{"ok":true}\n```' });
    const t = testDeps({ modelProviders: fakeOf().config });
    const outcome = await agentBlock.run(
      { provider: "openai", model: "gpt-4o", userPrompt: "x", responseFormat: { type: "object" } },
      { deps: t.deps, executionId: "e", workspaceId: "ws", blockId: "agent", input: {} },
    );
    expect(outcome).toMatchObject({ error: null, output: { content: { ok: true } } });
  });

  it("puts the chat conversation between the system prompt and the user prompt", async () => {
    const conversation: ChatMessage[] = [
      { role: "user", content: "My name is Ada." },
      { role: "assistant", content: "Nice to meet you, Ada." },
    ];
    await run(chain(start(), agent({ provider: "anthropic", model: "claude-sonnet-4-5", systemPrompt: "Be kind.", userPrompt: "What is my name?" })), { conversation });
    expect(fakeOf().requests[0].body).toMatchObject({
      system: "Be kind.",
      messages: [
        { role: "user", content: "My name is Ada." },
        { role: "assistant", content: "Nice to meet you, Ada." },
        { role: "user", content: "What is my name?" },
      ],
    });
  });

  it("parses the reply as JSON when a responseFormat is set, so later blocks can reference its fields", async () => {
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    fakeOf().script({ content: '{"city":"Paris"}' });
    const state = chain(
      start(),
      agent({ provider: "google", model: "gemini-2.5-flash", userPrompt: "Capital of France?", responseFormat: schema }),
      response({ data: "<agent.content.city>" }),
    );
    const { result } = await run(state);
    expect(result).toMatchObject({ success: true, output: "Paris" });
    expect(result.traceSpans[1].output).toMatchObject({ content: { city: "Paris" } });
    expect(fakeOf().requests[0].body.generationConfig).toEqual({ responseMimeType: "application/json", responseJsonSchema: schema });
  });

  it("fails when a responseFormat is set and the reply is not JSON, still counting the call's usage", async () => {
    fakeOf().script({ content: "Paris, of course", tokens: { prompt: 10, completion: 4 } });
    const { result } = await run(chain(start(), agent({ provider: "openai", model: "gpt-4o-mini", userPrompt: "x", responseFormat: { type: "object" } })));
    expect(result).toMatchObject({ success: false, error: 'Block "Agent" failed: The model\'s reply is not valid JSON although a responseFormat was set' });
    expect(result.traceSpans[1].output).toMatchObject({ content: "Paris, of course" });
    expect(result.modelUsage).toMatchObject([{ model: "gpt-4o-mini", prompt: 10, completion: 4 }]);
  });

  it("costs nothing for a model without a price, and its trace span says so", async () => {
    fakeOf().script({ tokens: { prompt: 100, completion: 50 } });
    const { result } = await run(chain(start(), agent({ provider: "openai", model: "my-local-llama", userPrompt: "x" })));
    expect(result.success).toBe(true);
    expect(result.traceSpans[1].output).toMatchObject({
      cost: { input: 0, output: 0, total: 0 },
      costNote: 'No price is known for model "my-local-llama": its model cost is counted as 0',
    });
    expect(result.output).toEqual({ content: "echo: x", model: "my-local-llama", tokens: { prompt: 100, completion: 50, total: 150 }, cost: { input: 0, output: 0, total: 0 } });
  });

  it("costs nothing with the workspace's own key (BYOK) and marks the usage", async () => {
    fakeOf().script({ tokens: { prompt: 1_000, completion: 1_000 } });
    const resolveProviderKey: ResolveProviderKey = async ({ provider }) => ({ key: fakeOf().keys[provider], byok: true });
    const { result } = await run(chain(start(), agent({ provider: "openai", model: "gpt-4o", userPrompt: "x" })), { resolveProviderKey, keys: false });
    expect(result.traceSpans[1].output).toMatchObject({ cost: { input: 0, output: 0, total: 0 }, costNote: expect.stringContaining("BYOK") });
    expect(result.modelUsage).toEqual([{ model: "gpt-4o", prompt: 1_000, completion: 1_000, byok: true }]);
  });

  it("fails clearly when the provider has no key", async () => {
    const { result } = await run(chain(start(), agent({ provider: "openai", model: "gpt-4o", userPrompt: "x" })), { keys: false });
    expect(result).toMatchObject({ success: false, status: 500, error: 'Block "Agent" failed: No API key for provider openai: set OPENAI_API_KEY' });
    expect(fakeOf().requests).toEqual([]);
    expect(result.modelUsage).toEqual([]);
  });

  it("retries a 429 through the injected sleep, then succeeds", async () => {
    fakeOf().script({ status: 429, error: "slow down" }, { content: "done" });
    const { result, sleeps } = await run(chain(start(), agent({ provider: "anthropic", model: "claude-haiku-4-5", userPrompt: "x" })));
    expect(result).toMatchObject({ success: true, output: { content: "done" } });
    expect(sleeps).toEqual([500]);
  });

  it("fails with the provider's message on a client error", async () => {
    fakeOf().script({ status: 404, error: "The model `gpt-9` does not exist" });
    const { result } = await run(chain(start(), agent({ provider: "openai", model: "gpt-9", userPrompt: "x" })));
    expect(result.error).toBe('Block "Agent" failed: Provider openai answered HTTP 404 Not Found: The model `gpt-9` does not exist');
    expect(result.traceSpans[1]).toMatchObject({ status: "error", output: null });
  });

  it("fails when the user prompt resolves to nothing", async () => {
    const { result } = await run(chain(start(), agent({ provider: "openai", model: "gpt-4o", userPrompt: "<start.question>" })));
    expect(result.error).toBe('Block "Agent" failed: userPrompt is empty (a reference in it resolved to nothing)');
    expect(fakeOf().requests).toEqual([]);
  });

  it("sends a non-text prompt value as JSON", async () => {
    await run(chain(start(), agent({ provider: "openai", model: "gpt-4o", userPrompt: "<start.order>" })), { input: { order: { id: 7 } } });
    expect(fakeOf().requests[0].prompt).toBe('{"id":7}');
  });
});

describe("agent block: validation", () => {
  const issues = (params: Record<string, unknown>) => agentBlock.validate(params);

  it("accepts a complete block, and references for provider and temperature", () => {
    expect(issues({ provider: "openai", model: "gpt-4o", userPrompt: "hi", systemPrompt: "s", temperature: 2 })).toEqual([]);
    expect(issues({ provider: "<start.provider>", model: "<start.model>", userPrompt: "<start.q>", temperature: "<start.t>" })).toEqual([]);
  });

  it("lists every problem", () => {
    expect(issues({ provider: "mistral", model: "", temperature: 3 })).toEqual([
      'provider must be one of openai, anthropic, google (got "mistral")',
      "model is required (a non-empty string, e.g. gpt-4o)",
      "temperature must be a number from 0 to 2 (got 3)",
      "userPrompt is required",
    ]);
    expect(issues({ provider: "openai", model: "gpt-4o", userPrompt: "x", temperature: -0.1 })).toEqual(["temperature must be a number from 0 to 2 (got -0.1)"]);
    expect(issues({ provider: "openai", model: "gpt-4o", userPrompt: "x", temperature: "hot" })).toEqual(['temperature must be a number from 0 to 2 (got "hot")']);
    expect(issues({ provider: "openai", model: "gpt-4o", userPrompt: "x", responseFormat: "{no" })).toEqual([
      "responseFormat must be a JSON schema object (the text given is not valid JSON)",
    ]);
  });

  it("holds Anthropic to its 0..1 temperature range", () => {
    expect(issues({ provider: "anthropic", model: "claude-haiku-4-5", userPrompt: "x", temperature: 1.5 })).toEqual([
      "temperature must be a number from 0 to 1 for provider anthropic (got 1.5)",
    ]);
  });

  it("is checked when a workflow state is validated", () => {
    const state = chain(start(), agent({ provider: "openai", model: "gpt-4o" }));
    expect(validateWorkflowState(state).map((i) => i.message)).toEqual(['Block "Agent" (agent): userPrompt is required']);
  });
});
