import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { insertDeployment, insertFolder, insertLog, insertLogs, insertWorkflow } from "../helpers/log-rows.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const HIGH_LIMITS = JSON.stringify({
  payload: { licensee: "test", plan: "enterprise", rateLimits: { api: { requestsPerMinute: 100000, maxBurst: 100000 } } },
});

const ENTRY_KEYS = ["cost", "endedAt", "executionId", "files", "id", "level", "startedAt", "totalDurationMs", "trigger", "workflowId"];
const RATE_LIMIT_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-policy", "ratelimit"];

function expectEnvelope(body: Record<string, unknown>, code: string) {
  expect(body).toMatchObject({ error: expect.any(String), code, requestId: expect.any(String) });
  expect(Object.keys(body).every((k) => ["error", "code", "details", "requestId"].includes(k))).toBe(true);
}

function expectRateLimitHeaders(res: Response) {
  for (const name of RATE_LIMIT_HEADERS) expect(res.headers.get(name), name).not.toBeNull();
}

describe("logs API: entries, detail, execution details", () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  const t0 = Date.UTC(2026, 0, 15, 10, 0, 0);
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  let workflowId: string;
  let deployed: { log: string; execution: string };
  let failed: { log: string; execution: string };
  let orphan: { log: string; execution: string };
  let running: { log: string; execution: string };
  let foreign: { log: string; execution: string };
  const snapshot = {
    blocks: { start: { type: "start", name: "Start" }, call: { type: "api", name: "Call", params: { url: "https://x" } } },
    edges: [{ id: "e1", source: "start", target: "call" }],
    loops: {},
    parallels: {},
  };
  const fullCost = {
    total: 0.0065,
    tokens: { prompt: 1000, completion: 500, total: 1500 },
    models: { "gpt-4o": { input: 0.0005, output: 0.001, total: 0.0015, tokens: { prompt: 1000, completion: 500, total: 1500 } } },
  };

  const get = (path: string, key = tenant.apiKey) => server.request(path, { headers: { "x-api-key": key } });
  const list = async (query: string) => {
    const res = await get(`/api/v1/logs?workspaceId=${tenant.workspaceId}&${query}`);
    expect(res.status).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { LICENSE: HIGH_LIMITS }, clock });
    tenant = await createTenant(server);
    other = await createTenant(server);
    const db = server.deps.db;
    const folderId = await insertFolder(db, tenant.workspaceId);
    workflowId = await insertWorkflow(db, { workspaceId: tenant.workspaceId, folderId, name: "Checkout", description: "Charges cards" });
    const deploymentId = await insertDeployment(db, workflowId, snapshot);
    const a = await insertLog(db, {
      workspaceId: tenant.workspaceId,
      workflowId,
      deploymentId,
      status: "success",
      trigger: "api",
      startedAt: t0,
      endedAt: t0 + 1234,
      totalDurationMs: 1234,
      costTotal: 0.0065,
      cost: JSON.stringify(fullCost),
      files: JSON.stringify([{ name: "report.pdf", size: 10 }]),
      traceSpans: JSON.stringify([{ id: "s1", name: "Call", type: "api" }]),
      finalOutput: JSON.stringify({ ok: true }),
      models: ["gpt-4o"],
    });
    deployed = { log: a.id!, execution: a.executionId! };
    const b = await insertLog(db, { workspaceId: tenant.workspaceId, workflowId, status: "error", trigger: "webhook", startedAt: t0 + 1000, cost: null, costTotal: 0.005 });
    failed = { log: b.id!, execution: b.executionId! };
    const c = await insertLog(db, { workspaceId: tenant.workspaceId, workflowId: "wf_deleted", status: "success", trigger: "schedule", startedAt: t0 + 2000 });
    orphan = { log: c.id!, execution: c.executionId! };
    const r = await insertLog(db, { workspaceId: tenant.workspaceId, workflowId, status: "running", startedAt: t0 + 3000 });
    running = { log: r.id!, execution: r.executionId! };
    const f = await insertLog(db, { workspaceId: other.workspaceId, workflowId: "wf_other", startedAt: t0 + 500 });
    foreign = { log: f.id!, execution: f.executionId! };
  });
  afterAll(() => server.close());

  describe("GET /api/v1/logs", () => {
    it("lists completed entries newest first with exactly the basic fields, limits and rate-limit headers", async () => {
      const res = await get(`/api/v1/logs?workspaceId=${tenant.workspaceId}`);
      expect(res.status).toBe(200);
      expectRateLimitHeaders(res);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(["data", "limits", "nextCursor"]);
      expect(body.nextCursor).toBeNull();
      expect(body.data.map((e: { id: string }) => e.id)).toEqual([orphan.log, failed.log, deployed.log]);
      for (const entry of body.data) expect(Object.keys(entry).sort()).toEqual(ENTRY_KEYS);
      expect(body.data[2]).toEqual({
        id: deployed.log,
        workflowId,
        executionId: deployed.execution,
        level: "info",
        trigger: "api",
        startedAt: "2026-01-15T10:00:00.000Z",
        endedAt: "2026-01-15T10:00:01.234Z",
        totalDurationMs: 1234,
        cost: { total: 0.0065 },
        files: [{ name: "report.pdf", size: 10 }],
      });
      expect(body.data[1]).toMatchObject({ level: "error", trigger: "webhook", files: null });
      expect(body.limits).toEqual({
        workflowExecutionRateLimit: {
          sync: { requestsPerMinute: expect.any(Number), maxBurst: expect.any(Number), remaining: expect.any(Number), resetAt: expect.any(String) },
          async: { requestsPerMinute: expect.any(Number), maxBurst: expect.any(Number), remaining: expect.any(Number), resetAt: expect.any(String) },
        },
        usage: { currentPeriodCost: expect.any(Number), limit: expect.any(Number), plan: "enterprise", isExceeded: false },
      });
    });

    it("details=full adds the workflow; a deleted workflow has an empty name", async () => {
      const body = await list("details=full");
      for (const entry of body.data) expect(Object.keys(entry).sort()).toEqual([...ENTRY_KEYS, "workflow"].sort());
      const byId = Object.fromEntries(body.data.map((e: { id: string }) => [e.id, e]));
      expect(byId[deployed.log].workflow).toEqual({ id: workflowId, name: "Checkout", description: "Charges cards" });
      expect(byId[orphan.log].workflow).toEqual({ id: "wf_deleted", name: "", description: "" });
    });

    it("includeTraceSpans and includeFinalOutput add executionData with just the asked parts", async () => {
      const spans = await list(`executionId=${deployed.execution}&includeTraceSpans=true`);
      expect(Object.keys(spans.data[0]).sort()).toEqual([...ENTRY_KEYS, "executionData"].sort());
      expect(spans.data[0].executionData).toEqual({ traceSpans: [{ id: "s1", name: "Call", type: "api" }] });

      const output = await list(`executionId=${deployed.execution}&includeFinalOutput=1&details=full`);
      expect(Object.keys(output.data[0]).sort()).toEqual([...ENTRY_KEYS, "executionData", "workflow"].sort());
      expect(output.data[0].executionData).toEqual({ finalOutput: { ok: true } });

      const both = await list(`executionId=${deployed.execution}&includeFinalOutput=true&includeTraceSpans=true`);
      expect(both.data[0].executionData).toEqual({ traceSpans: [{ id: "s1", name: "Call", type: "api" }], finalOutput: { ok: true } });

      const neither = await list(`executionId=${deployed.execution}&includeFinalOutput=false&includeTraceSpans=0`);
      expect(Object.keys(neither.data[0]).sort()).toEqual(ENTRY_KEYS);
    });

    it("never lists a running execution nor another workspace's", async () => {
      const body = await list("limit=1000");
      const ids = body.data.map((e: { id: string }) => e.id);
      expect(ids).not.toContain(running.log);
      expect(ids).not.toContain(foreign.log);
    });

    it("writes every timestamp exactly as ISO 8601 in UTC, across day, leap-day and year boundaries", async () => {
      const t = await createTenant(server);
      const instants = [0, 999, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2025, 11, 31, 23, 59, 59, 999), Date.UTC(2026, 0, 1), 1768471200123];
      const rows = await insertLogs(
        server.deps.db,
        instants.map((startedAt, i) => ({ workspaceId: t.workspaceId, workflowId: "wf_t", startedAt, totalDurationMs: i * 37_777 })),
      );
      const res = await server.request(`/api/v1/logs?workspaceId=${t.workspaceId}&order=asc`, { headers: { "x-api-key": t.apiKey } });
      const body = await res.json();
      expect(body.data.map((e: { startedAt: string; endedAt: string }) => [e.startedAt, e.endedAt])).toEqual(
        rows.map((r) => [new Date(r.startedAt).toISOString(), new Date(r.startedAt + (r.totalDurationMs ?? 0)).toISOString()]),
      );
    });

    it("lists a row whose stored JSON is unreadable with null files and output and no trace spans", async () => {
      const t = await createTenant(server);
      const [row] = await insertLogs(server.deps.db, [
        { workspaceId: t.workspaceId, workflowId: "wf_bad", files: "{not json", traceSpans: '{"not":"an array"}', finalOutput: "oops[" },
      ]);
      const query = "includeTraceSpans=true&includeFinalOutput=true";
      const res = await server.request(`/api/v1/logs?workspaceId=${t.workspaceId}&${query}`, { headers: { "x-api-key": t.apiKey } });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.data).toHaveLength(1);
      expect(body.data[0]).toMatchObject({ id: row.id, files: null, executionData: { traceSpans: [], finalOutput: null } });
    });

    it("accepts the key header in any case", async () => {
      for (const name of ["X-API-KEY", "X-Api-Key", "x-api-key"]) {
        const res = await server.request(`/api/v1/logs?workspaceId=${tenant.workspaceId}`, { headers: { [name]: tenant.apiKey } });
        expect(res.status).toBe(200);
      }
    });
  });

  describe("GET /api/v1/logs/{id}", () => {
    it("answers the log detail with full cost, workflow, execution data and limits", async () => {
      const res = await get(`/api/v1/logs/${deployed.log}`);
      expect(res.status).toBe(200);
      expectRateLimitHeaders(res);
      const body = await res.json();
      expect(Object.keys(body)).toEqual(["data"]);
      expect(Object.keys(body.data).sort()).toEqual(
        ["cost", "endedAt", "executionData", "executionId", "id", "level", "limits", "startedAt", "totalDurationMs", "trigger", "workflow", "workflowId"],
      );
      expect(body.data).toMatchObject({
        id: deployed.log,
        workflowId,
        executionId: deployed.execution,
        level: "info",
        trigger: "api",
        startedAt: "2026-01-15T10:00:00.000Z",
        endedAt: "2026-01-15T10:00:01.234Z",
        totalDurationMs: 1234,
        cost: fullCost,
        workflow: { id: workflowId, name: "Checkout", description: "Charges cards" },
        executionData: { traceSpans: [{ id: "s1", name: "Call", type: "api" }], finalOutput: { ok: true } },
      });
      expect(body.data.limits.usage.plan).toBe("enterprise");
    });

    it("builds the cost object from cost_total when none was stored", async () => {
      const body = await (await get(`/api/v1/logs/${failed.log}`)).json();
      expect(body.data.cost).toEqual({ total: 0.005, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} });
      expect(body.data.level).toBe("error");
    });

    it("404 for an unknown id, another workspace's log and a running one, with rate-limit headers", async () => {
      for (const id of ["log_unknown", foreign.log, running.log]) {
        const res = await get(`/api/v1/logs/${id}`);
        expect(res.status).toBe(404);
        expectRateLimitHeaders(res);
        expectEnvelope(await res.json(), "NOT_FOUND");
      }
    });
  });

  describe("GET /api/v1/logs/executions/{executionId}", () => {
    it("answers the execution with its deployed snapshot at top level", async () => {
      const res = await get(`/api/v1/logs/executions/${deployed.execution}`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(["executionId", "executionMetadata", "limits", "workflowId", "workflowState"]);
      expect(body).toMatchObject({
        executionId: deployed.execution,
        workflowId,
        workflowState: snapshot,
        executionMetadata: {
          trigger: "api",
          startedAt: "2026-01-15T10:00:00.000Z",
          endedAt: "2026-01-15T10:00:01.234Z",
          totalDurationMs: 1234,
          cost: fullCost,
        },
      });
      expect(Object.keys(body.executionMetadata).sort()).toEqual(["cost", "endedAt", "startedAt", "totalDurationMs", "trigger"]);
    });

    it("shows an empty graph when the run has no deployment snapshot", async () => {
      const body = await (await get(`/api/v1/logs/executions/${orphan.execution}`)).json();
      expect(body.workflowState).toEqual({ blocks: {}, edges: [], loops: {}, parallels: {} });
      expect(body.executionMetadata.trigger).toBe("schedule");
    });

    it("404 for an unknown, another workspace's and a running execution", async () => {
      for (const id of ["exec_unknown", foreign.execution, running.execution]) {
        const res = await get(`/api/v1/logs/executions/${id}`);
        expect(res.status).toBe(404);
        expectEnvelope(await res.json(), "NOT_FOUND");
      }
    });
  });

  describe("errors", () => {
    it("401 for a missing or unknown key, on every endpoint", async () => {
      for (const path of [`/api/v1/logs?workspaceId=${tenant.workspaceId}`, `/api/v1/logs/${deployed.log}`, `/api/v1/logs/executions/${deployed.execution}`]) {
        const missing = await server.request(path);
        expect(missing.status).toBe(401);
        expectEnvelope(await missing.json(), "UNAUTHORIZED");
        const wrong = await server.request(path, { headers: { "X-API-KEY": "sk_not_a_key" } });
        expect(wrong.status).toBe(401);
        expectEnvelope(await wrong.json(), "UNAUTHORIZED");
      }
    });

    it("403 for a workspace the key's user has no permission on, with rate-limit headers", async () => {
      for (const workspaceId of [other.workspaceId, "ws_unknown"]) {
        const res = await get(`/api/v1/logs?workspaceId=${workspaceId}`);
        expect(res.status).toBe(403);
        expectRateLimitHeaders(res);
        expectEnvelope(await res.json(), "FORBIDDEN");
      }
    });

    it("a key never sees another workspace's logs, even naming its workflow", async () => {
      const res = await get(`/api/v1/logs?workspaceId=${tenant.workspaceId}&workflowIds=wf_other`);
      expect((await res.json()).data).toEqual([]);
      const theirs = await get(`/api/v1/logs?workspaceId=${other.workspaceId}&workflowIds=wf_other`);
      expect(theirs.status).toBe(403);
    });

    const invalid: [string, string][] = [
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["limit=abc", "limit"],
      ["level=warn", "level"],
      ["triggers=api,foo", "triggers"],
      ["startDate=garbage", "startDate"],
      ["endDate=2026-02-30", "endDate"],
      ["minCost=-1", "minCost"],
      ["maxCost=x", "maxCost"],
      ["minDurationMs=1.5", "minDurationMs"],
      ["maxDurationMs=-3", "maxDurationMs"],
      ["order=up", "order"],
      ["details=x", "details"],
      ["includeTraceSpans=yes", "includeTraceSpans"],
    ];
    for (const [query, parameter] of invalid) {
      it(`400 INVALID_PARAMETER naming ${parameter} for ${query}`, async () => {
        const res = await get(`/api/v1/logs?workspaceId=${tenant.workspaceId}&${query}`);
        expect(res.status).toBe(400);
        expectRateLimitHeaders(res);
        const body = await res.json();
        expectEnvelope(body, "INVALID_PARAMETER");
        expect(body.error).toContain(`"${parameter}"`);
        expect(body.details.map((d: { parameter: string }) => d.parameter)).toEqual([parameter]);
      });
    }

    it("400 INVALID_PARAMETER for a missing workspaceId", async () => {
      const res = await get("/api/v1/logs");
      expect(res.status).toBe(400);
      expect((await res.json()).details[0].parameter).toBe("workspaceId");
    });

    it("400 INVALID_CURSOR for a garbage cursor and for a cursor of the other order", async () => {
      for (const cursor of ["garbage!", "bm90LWpzb24", Buffer.from('{"v":1,"o":"d","t":"x","i":1}').toString("base64url")]) {
        const res = await get(`/api/v1/logs?workspaceId=${tenant.workspaceId}&cursor=${encodeURIComponent(cursor)}`);
        expect(res.status).toBe(400);
        expectRateLimitHeaders(res);
        const body = await res.json();
        expectEnvelope(body, "INVALID_CURSOR");
        expect(body.details).toEqual({ parameter: "cursor" });
      }
      const page = await list("order=desc&limit=1");
      expect(page.nextCursor).toEqual(expect.any(String));
      const res = await get(`/api/v1/logs?workspaceId=${tenant.workspaceId}&order=asc&cursor=${page.nextCursor}`);
      expect(res.status).toBe(400);
      expectEnvelope(await res.json(), "INVALID_CURSOR");
      const asc = await list("order=asc&limit=1");
      const back = await get(`/api/v1/logs?workspaceId=${tenant.workspaceId}&cursor=${asc.nextCursor}`);
      expect(back.status).toBe(400);
      expect((await back.json()).code).toBe("INVALID_CURSOR");
    });
  });
});
