import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { type FakeProvider, startFakeProvider } from "../helpers/fake-provider.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("agent runs end to end: provider call, cost in the log and in the period usage", () => {
  let server: TestServer;
  let tenant: Tenant;
  let fake: FakeProvider;

  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": tenant.apiKey, ...init.headers } });

  /** Creates and deploys start -> agent -> response, returning the workflow id. */
  async function deployAgent(params: Record<string, unknown>): Promise<string> {
    const state = {
      blocks: {
        start: { type: "start", name: "Start" },
        ask: { type: "agent", name: "Ask", params },
        respond: { type: "response", name: "Respond", params: { data: { answer: "<ask.content>", tokens: "<ask.tokens>", cost: "<ask.cost>" } } },
      },
      edges: [
        { source: "start", target: "ask" },
        { source: "ask", target: "respond" },
      ],
    };
    const created = await call("/api/workflows", { method: "POST", json: { workspaceId: tenant.workspaceId, name: "Agent", state } });
    expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
    const id = (await created.json()).data.id as string;
    expect((await call(`/api/workflows/${id}/deploy`, { method: "POST" })).status).toBe(200);
    return id;
  }

  async function logOf(executionId: string) {
    const list = await (await call(`/api/v1/logs?workspaceId=${tenant.workspaceId}&executionId=${executionId}`)).json();
    expect(list.data).toHaveLength(1);
    const res = await call(`/api/v1/logs/${list.data[0].id}`);
    expect(res.status).toBe(200);
    return (await res.json()).data;
  }

  async function periodCost(): Promise<number> {
    const res = await call("/api/users/me/usage-limits");
    expect(res.status).toBe(200);
    return (await res.json()).usage.currentPeriodCost;
  }

  beforeAll(async () => {
    fake = await startFakeProvider();
    // Google has no platform key in this installation.
    server = await startTestServer({ env: { ...fake.env, GOOGLE_API_KEY: "" } });
    tenant = await createTenant(server);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it("runs an agent, records base charge + exact model cost, and finds the log by model", async () => {
    const workflowId = await deployAgent({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      systemPrompt: "Answer briefly.",
      userPrompt: "<start.question>",
    });
    const before = await periodCost();
    fake.script({ content: "Paris.", tokens: { prompt: 1_234, completion: 567 } });

    const res = await call(`/api/workflows/${workflowId}/execute`, { method: "POST", json: { question: "Capital of France?" } });
    expect(res.status).toBe(200);
    const body = await res.json();
    // claude-sonnet-4-5: 3 USD in / 15 USD out per 1M tokens.
    const modelCost = { input: 0.003702, output: 0.008505, total: 0.012207 };
    expect(body).toMatchObject({
      success: true,
      output: { answer: "Paris.", tokens: { prompt: 1_234, completion: 567, total: 1_801 }, cost: modelCost },
    });

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5", system: "Answer briefly.", prompt: "Capital of France?" });
    expect(fake.requests[0].headers["x-api-key"]).toBe(fake.keys.anthropic);

    const log = await logOf(body.executionId);
    const tokens = { prompt: 1_234, completion: 567, total: 1_801 };
    expect(log.cost).toEqual({
      total: 0.017207, // 0.005 base + 0.012207
      tokens,
      models: { "claude-sonnet-4-5": { ...modelCost, tokens } },
    });
    const span = log.executionData.traceSpans.find((s: { type: string }) => s.type === "agent");
    expect(span).toMatchObject({ name: "Ask", status: "success", output: { content: "Paris.", cost: modelCost } });
    expect(JSON.stringify(log)).not.toContain(fake.keys.anthropic);

    const byModel = await (await call(`/api/v1/logs?workspaceId=${tenant.workspaceId}&model=claude-sonnet-4-5`)).json();
    expect(byModel.data.map((e: { id: string }) => e.id)).toContain(log.id);
    expect(byModel.data.find((e: { id: string }) => e.id === log.id).cost).toEqual({ total: 0.017207 });
    const otherModel = await (await call(`/api/v1/logs?workspaceId=${tenant.workspaceId}&model=gpt-4o`)).json();
    expect(otherModel.data.map((e: { id: string }) => e.id)).not.toContain(log.id);
    // The cost filters see the model money too: 0.017207 is above a run's base charge alone.
    const dearer = await (await call(`/api/v1/logs?workspaceId=${tenant.workspaceId}&minCost=0.0172&maxCost=0.0173`)).json();
    expect(dearer.data.map((e: { id: string }) => e.id)).toEqual([log.id]);
    const baseOnly = await (await call(`/api/v1/logs?workspaceId=${tenant.workspaceId}&maxCost=0.005`)).json();
    expect(baseOnly.data.map((e: { id: string }) => e.id)).not.toContain(log.id);

    expect(await periodCost()).toBeCloseTo(before + 0.017207, 9);
  });

  it("charges only the base for a model without a price, still counting its tokens", async () => {
    const workflowId = await deployAgent({ provider: "openai", model: "my-local-llama", userPrompt: "hi" });
    fake.script({ tokens: { prompt: 40, completion: 10 } });
    const res = await call(`/api/workflows/${workflowId}/execute`, { method: "POST", json: {} });
    const body = await res.json();
    expect(body).toMatchObject({ success: true, output: { answer: "echo: hi", cost: { input: 0, output: 0, total: 0 } } });
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${fake.keys.openai}`);
    const log = await logOf(body.executionId);
    expect(log.cost).toEqual({
      total: 0.005,
      tokens: { prompt: 40, completion: 10, total: 50 },
      models: { "my-local-llama": { input: 0, output: 0, total: 0, tokens: { prompt: 40, completion: 10, total: 50 } } },
    });
    const span = log.executionData.traceSpans.find((s: { type: string }) => s.type === "agent");
    expect(span.output.costNote).toBe('No price is known for model "my-local-llama": its model cost is counted as 0');
  });

  it("fails the run with a clear error when the provider has no key, charging only the base", async () => {
    const workflowId = await deployAgent({ provider: "google", model: "gemini-2.5-flash", userPrompt: "hi" });
    const res = await call(`/api/workflows/${workflowId}/execute`, { method: "POST", json: {} });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, error: 'Block "Ask" failed: No API key for provider google: set GOOGLE_API_KEY' });
    expect(fake.requests).toEqual([]);
    const log = await logOf(body.executionId);
    expect(log).toMatchObject({ level: "error", cost: { total: 0.005, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} } });
  });

  it("does not deploy an agent block with invalid params", async () => {
    const state = {
      blocks: { start: { type: "start", name: "Start" }, ask: { type: "agent", name: "Ask", params: { provider: "openai", model: "gpt-4o", temperature: 9 } } },
      edges: [{ source: "start", target: "ask" }],
    };
    const res = await call("/api/workflows", { method: "POST", json: { workspaceId: tenant.workspaceId, name: "Bad agent", state } });
    const text = JSON.stringify(await res.json());
    expect(res.status).toBe(400);
    expect(text).toContain("temperature must be a number from 0 to 2 (got 9)");
    expect(text).toContain("userPrompt is required");
  });
});
