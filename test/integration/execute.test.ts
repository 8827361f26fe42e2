import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { executionLogs, usagePeriods } from "../../server/db/schema/index.ts";
import { takeExecutionToken } from "../../server/limits/execution-limits.ts";
import { billingPeriod } from "../../server/limits/usage.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { type ReceivedRequest, startReceiver } from "../helpers/receiver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** A stand-in for the external service the api block calls. */
async function startExternal(answer: (req: ReceivedRequest) => { status: number; body: unknown }) {
  const receiver = await startReceiver();
  receiver.reply((request, res) => {
    const out = answer(request);
    res.writeHead(out.status, { "content-type": "application/json", "x-external": "1" });
    res.end(JSON.stringify(out.body));
  });
  return { url: receiver.url, seen: receiver.requests, close: receiver.close };
}

describe("POST /api/workflows/{id}/execute", () => {
  const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 30, 0));
  let server: TestServer;
  let external: Awaited<ReturnType<typeof startExternal>>;
  let owner: Tenant;
  let workflowId: string;
  let deploymentId: string;

  const call = (apiKey: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": apiKey, ...init.headers } });

  async function deployed(tenant: Tenant, state: unknown): Promise<{ id: string; deploymentId: string }> {
    const created = await call(tenant.apiKey, "/api/workflows", {
      method: "POST",
      json: { workspaceId: tenant.workspaceId, name: "Flow", state },
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id;
    const deploy = await (await call(tenant.apiKey, `/api/workflows/${id}/deploy`, { method: "POST" })).json();
    return { id, deploymentId: deploy.data.id };
  }

  const userLookup = () => ({
    blocks: {
      start: { type: "start", name: "Start" },
      fetch: { type: "api", name: "Fetch", params: { url: `${external.url}/users/<start.userId>`, retries: 0 } },
      respond: {
        type: "response",
        name: "Respond",
        params: {
          data: { user: "<fetch.data>", echoedId: "<start.id>" },
          status: 201,
          headers: {
            "x-workflow": "yes",
            "set-cookie": "session=planted",
            "content-type": "text/plain",
            "transfer-encoding": "chunked",
          },
        },
      },
    },
    edges: [
      { source: "start", target: "fetch" },
      { source: "fetch", target: "respond" },
    ],
  });

  beforeAll(async () => {
    external = await startExternal((req) =>
      req.url.startsWith("/users/missing")
        ? { status: 404, body: { error: "no such user" } }
        : { status: 200, body: { id: req.url.split("/").pop(), name: "Ada" } },
    );
    server = await startTestServer({ clock });
    owner = await createTenant(server);
    ({ id: workflowId, deploymentId } = await deployed(owner, userLookup()));
  });
  afterAll(async () => {
    await server.close();
    await external.close();
  });

  it("runs start -> api -> response with the raw body as input, keeping a top-level id", async () => {
    const res = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, {
      method: "POST",
      json: { userId: "u42", id: "caller-id" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-workflow")).toBe("yes");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = await res.json();
    expect(body).toEqual({
      success: true,
      executionId: expect.stringMatching(/^exec_/),
      output: { user: { id: "u42", name: "Ada" }, echoedId: "caller-id" },
      error: null,
      metadata: { startTime: new Date(clock.now()).toISOString(), endTime: new Date(clock.now()).toISOString(), duration: 0 },
    });
    expect(external.seen.at(-1)).toMatchObject({ method: "GET", url: "/users/u42" });
  });

  it("takes the input from {input} when it is the only key", async () => {
    const res = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, {
      method: "POST",
      json: { input: { userId: "u7", id: "inner" } },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).output).toEqual({ user: { id: "u7", name: "Ada" }, echoedId: "inner" });
  });

  it("keeps a top-level id whatever the case of the path", async () => {
    const res = await call(owner.apiKey, `/api/Workflows/${workflowId}/Execute`, {
      method: "POST",
      json: { userId: "u9", id: "mixed-case" },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).output).toEqual({ user: { id: "u9", name: "Ada" }, echoedId: "mixed-case" });
  });

  it("passes the whole body when input is not its only key, and {} for an empty body", async () => {
    const echo = await deployed(owner, {
      blocks: {
        start: { type: "start", name: "Start" },
        respond: { type: "response", name: "Respond", params: { data: "<start>" } },
      },
      edges: [{ source: "start", target: "respond" }],
    });
    const mixed = await call(owner.apiKey, `/api/workflows/${echo.id}/execute`, {
      method: "POST",
      json: { input: 1, other: 2 },
    });
    expect((await mixed.json()).output).toEqual({ input: 1, other: 2 });
    const empty = await call(owner.apiKey, `/api/workflows/${echo.id}/execute`, { method: "POST" });
    expect(empty.status).toBe(200);
    expect((await empty.json()).output).toEqual({});
    const bad = await call(owner.apiKey, `/api/workflows/${echo.id}/execute`, {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe("INVALID_JSON");
  });

  it("records the log row, its trace spans and the usage", async () => {
    const before = await usage(owner.userId);
    const res = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, { method: "POST", json: { userId: "u1" } });
    const body = await res.json();
    const row = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, body.executionId)).get();
    expect(row).toMatchObject({
      id: expect.stringMatching(/^log_/),
      workspaceId: owner.workspaceId,
      workflowId,
      userId: owner.userId,
      deploymentId,
      status: "success",
      level: "info",
      trigger: "api",
      startedAt: clock.now(),
      endedAt: clock.now(),
      totalDurationMs: 0,
      costTotal: 0.005,
      files: null,
      error: null,
    });
    expect(JSON.parse(row?.cost ?? "null")).toMatchObject({ total: 0.005, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} });
    expect(JSON.parse(row?.finalOutput ?? "null")).toEqual(body.output);
    const spans = JSON.parse(row?.traceSpans ?? "[]");
    expect(spans.map((s: { blockId: string; status: string }) => [s.blockId, s.status])).toEqual([
      ["start", "success"],
      ["fetch", "success"],
      ["respond", "success"],
    ]);
    expect(spans[1].output).toMatchObject({ status: 200, data: { id: "u1", name: "Ada" } });
    const after = await usage(owner.userId);
    expect(after.executions).toBe(before.executions + 1);
    expect(after.cost).toBeCloseTo(before.cost + 0.005, 9);
  });

  it("answers a failed run with a non-2xx status, success false and the error, and logs it as an error", async () => {
    const res = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, { method: "POST", json: { userId: "missing" } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get("x-workflow")).toBeNull();
    const body = await res.json();
    expect(body).toMatchObject({ success: false, executionId: expect.stringMatching(/^exec_/), error: expect.stringContaining("404") });
    const row = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, body.executionId)).get();
    expect(row).toMatchObject({ status: "error", level: "error", trigger: "api", costTotal: 0.005 });
    expect(row?.error).toContain("404");
    const spans = JSON.parse(row?.traceSpans ?? "[]");
    expect(spans.map((s: { blockId: string; status: string }) => [s.blockId, s.status])).toEqual([
      ["start", "success"],
      ["fetch", "error"],
    ]);
  });

  it("answers 401 without a valid key, before anything else", async () => {
    const none = await server.request(`/api/workflows/${workflowId}/execute`, { method: "POST", json: {} });
    expect(none.status).toBe(401);
    expect((await none.json()).code).toBe("UNAUTHORIZED");
    const wrong = await call("not-a-key", "/api/workflows/wf_unknown/execute", { method: "POST", json: {} });
    expect(wrong.status).toBe(401);
  });

  it("answers 402 when the period's usage has reached the limit, before spending a token", async () => {
    const tenant = await createTenant(server);
    const flow = await deployed(tenant, userLookup());
    const limit = server.deps.license.limits.usageLimitUsd;
    await server.deps.db
      .insert(usagePeriods)
      .values({ userId: tenant.userId, period: billingPeriod(clock.now()), cost: limit, executions: 1 });
    const res = await call(tenant.apiKey, `/api/workflows/${flow.id}/execute`, { method: "POST", json: { userId: "x" } });
    expect(res.status).toBe(402);
    expect((await res.json()).code).toBe("USAGE_LIMIT_EXCEEDED");
    const rows = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.workflowId, flow.id));
    expect(rows).toEqual([]);
  });

  it("answers 429 with Retry-After once the sync bucket is drained", async () => {
    const tenant = await createTenant(server);
    const flow = await deployed(tenant, userLookup());
    const burst = server.deps.license.limits.sync.maxBurst;
    for (let i = 0; i < burst; i++) await takeExecutionToken(server.deps, tenant.userId, "sync");
    const res = await call(tenant.apiKey, `/api/workflows/${flow.id}/execute`, { method: "POST", json: { userId: "x" } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await res.json()).code).toBe("RATE_LIMITED");
    const rows = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.workflowId, flow.id));
    expect(rows).toEqual([]);

    clock.advance(60_000);
    const later = await call(tenant.apiKey, `/api/workflows/${flow.id}/execute`, { method: "POST", json: { userId: "x" } });
    expect(later.status).toBe(201);
  });

  it("serves tRPC callers through the same service, {id, input}", async () => {
    const res = await call(owner.apiKey, "/trpc/workflows.execute", {
      method: "POST",
      json: { id: workflowId, input: { userId: "t1", id: "trpc-id" } },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.result.data).toMatchObject({ success: true, output: { user: { id: "t1" }, echoedId: "trpc-id" } });
  });

  async function usage(userId: string) {
    const row = await server.deps.db
      .select()
      .from(usagePeriods)
      .where(and(eq(usagePeriods.userId, userId), eq(usagePeriods.period, billingPeriod(clock.now()))))
      .get();
    return { cost: row?.cost ?? 0, executions: row?.executions ?? 0 };
  }
});
