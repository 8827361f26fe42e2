import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { executionLogs, jobs } from "../../server/db/schema/index.ts";
import { eventually } from "../helpers/eventually.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { type Receiver, startReceiver } from "../helpers/receiver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const TINY_ASYNC = JSON.stringify({
  payload: { licensee: "test", plan: "free", rateLimits: { async: { requestsPerMinute: 1, maxBurst: 2 } } },
});

describe("async executions: X-Execution-Mode async, {async: true}, GET /api/jobs/{jobId}", () => {
  const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 30, 0));
  let server: TestServer;
  let external: Receiver;
  let owner: Tenant;
  let stranger: Tenant;
  let workflowId: string;
  let failingId: string;

  const call = (apiKey: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": apiKey, ...init.headers } });

  async function deployed(state: unknown): Promise<string> {
    const created = await call(owner.apiKey, "/api/workflows", { method: "POST", json: { workspaceId: owner.workspaceId, name: "Flow", state } });
    const id = (await created.json()).data.id;
    expect((await call(owner.apiKey, `/api/workflows/${id}/deploy`, { method: "POST" })).ok).toBe(true);
    return id;
  }
  const lookup = (path: string) => ({
    blocks: {
      start: { type: "start", name: "Start" },
      fetch: { type: "api", name: "Fetch", params: { url: `${external.url}${path}`, retries: 0 } },
      respond: { type: "response", name: "Respond", params: { data: { user: "<fetch.data>", n: "<start.n>" } } },
    },
    edges: [
      { source: "start", target: "fetch" },
      { source: "fetch", target: "respond" },
    ],
  });

  async function settled(statusUrl: string, apiKey = owner.apiKey) {
    return eventually(async () => {
      const res = await server.request(new URL(statusUrl).pathname, { headers: { "x-api-key": apiKey } });
      expect(res.status).toBe(200);
      const body = await res.json();
      return body.status === "completed" || body.status === "failed" ? body : undefined;
    }, "the job to finish");
  }

  beforeAll(async () => {
    external = await startReceiver();
    external.reply((req, res) => {
      const missing = req.url.startsWith("/missing");
      res.writeHead(missing ? 404 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify(missing ? { error: "gone" } : { name: "Ada" }));
    });
    server = await startTestServer({ clock });
    owner = await createTenant(server);
    stranger = await createTenant(server);
    workflowId = await deployed(lookup("/users/1"));
    failingId = await deployed(lookup("/missing"));
  });
  afterAll(async () => {
    await server.close();
    await external.close();
  });

  it("answers 202 with the job, then runs it: the job shows the output and the log the run", async () => {
    const res = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, {
      method: "POST",
      headers: { "X-Execution-Mode": "ASYNC" },
      json: { n: 7 },
    });
    expect(res.status).toBe(202);
    const queued = await res.json();
    expect(queued).toEqual({
      success: true,
      async: true,
      jobId: expect.stringMatching(/^job_/),
      executionId: expect.stringMatching(/^exec_/),
      message: expect.any(String),
      statusUrl: `${server.url}/api/jobs/${queued.jobId}`,
    });

    const job = await settled(queued.statusUrl);
    expect(job).toMatchObject({
      success: true,
      jobId: queued.jobId,
      status: "completed",
      executionId: queued.executionId,
      output: { user: { name: "Ada" }, n: 7 },
      metadata: { attempts: 1 },
    });
    expect(job.error).toBeUndefined();
    expect(Date.parse(job.metadata.completedAt)).toBeGreaterThanOrEqual(Date.parse(job.metadata.startedAt));

    const log = await (await call(owner.apiKey, `/api/v1/logs/executions/${queued.executionId}`)).json();
    expect(log.executionId).toBe(queued.executionId);
    const list = await (await call(owner.apiKey, `/api/v1/logs?workspaceId=${owner.workspaceId}&executionId=${queued.executionId}`)).json();
    expect(list.data).toEqual([expect.objectContaining({ trigger: "api", level: "info" })]);
  });

  it("takes {input, async: true} in the body, and the header's sync over the body", async () => {
    const res = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, { method: "POST", json: { input: { n: 1 }, async: true } });
    expect(res.status).toBe(202);
    const job = await settled((await res.json()).statusUrl);
    expect(job.output).toEqual({ user: { name: "Ada" }, n: 1 });

    const sync = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, {
      method: "POST",
      headers: { "x-execution-mode": "sync" },
      json: { input: { n: 2 }, async: true },
    });
    expect(sync.status).toBe(200);
    expect((await sync.json()).output).toEqual({ user: { name: "Ada" }, n: 2 });
  });

  it("reports a run that fails as a failed job with its error", async () => {
    const res = await call(owner.apiKey, `/api/workflows/${failingId}/execute`, { method: "POST", headers: { "x-execution-mode": "async" } });
    const job = await settled((await res.json()).statusUrl);
    expect(job).toMatchObject({ success: false, status: "failed", error: expect.stringContaining("404") });
    expect(job.output).toBeUndefined();
  });

  it("keeps jobs private: 404 for another user's job and an unknown id", async () => {
    const res = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, { method: "POST", headers: { "x-execution-mode": "async" } });
    const { jobId, statusUrl } = await res.json();
    await settled(statusUrl);
    const foreign = await call(stranger.apiKey, `/api/jobs/${jobId}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: "NOT_FOUND" });
    expect((await call(owner.apiKey, "/api/jobs/job_unknown")).status).toBe(404);
    expect((await server.request(`/api/jobs/${jobId}`)).status).toBe(401);
  });

  it("checks like a synchronous run before queueing: 400 for a bad mode, 404 for a stranger, nothing queued", async () => {
    const before = (await server.deps.db.select().from(jobs)).length;
    const bad = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, { method: "POST", headers: { "x-execution-mode": "later" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "INVALID_PARAMETER", details: { parameter: "X-Execution-Mode" } });
    const foreign = await call(stranger.apiKey, `/api/workflows/${workflowId}/execute`, { method: "POST", headers: { "x-execution-mode": "async" } });
    expect(foreign.status).toBe(404);
    expect((await server.deps.db.select().from(jobs)).length).toBe(before);
  });

  it("the queued run is recorded once under the execution id it was given", async () => {
    const res = await call(owner.apiKey, `/api/workflows/${workflowId}/execute`, { method: "POST", json: { async: true } });
    const { executionId, statusUrl } = await res.json();
    await settled(statusUrl);
    const rows = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, executionId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "success", trigger: "api" });
  });
});

describe("async executions: the async bucket", () => {
  let server: TestServer;
  afterAll(() => server.close());

  it("answers 429 with Retry-After once the async bucket is empty, and queues nothing more", async () => {
    server = await startTestServer({ env: { LICENSE: TINY_ASYNC }, clock: new ManualClock(Date.UTC(2026, 4, 10)) });
    const tenant = await createTenant(server);
    const headers = { "x-api-key": tenant.apiKey };
    const state = { blocks: { start: { type: "start", name: "Start" } }, edges: [] };
    const created = await server.request("/api/workflows", { method: "POST", headers, json: { workspaceId: tenant.workspaceId, name: "F", state } });
    const id = (await created.json()).data.id;
    await server.request(`/api/workflows/${id}/deploy`, { method: "POST", headers });
    const run = () => server.request(`/api/workflows/${id}/execute`, { method: "POST", headers: { ...headers, "x-execution-mode": "async" } });
    expect((await run()).status).toBe(202);
    expect((await run()).status).toBe(202);
    const refused = await run();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: "RATE_LIMITED", details: { bucket: "async" } });
    expect((await server.deps.db.select().from(jobs)).length).toBe(2);
  });
});
