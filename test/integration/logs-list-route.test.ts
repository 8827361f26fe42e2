import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { insertFolder, insertLogs, insertWorkflow } from "../helpers/log-rows.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const HIGH_LIMITS = JSON.stringify({
  payload: { licensee: "test", plan: "enterprise", rateLimits: { api: { requestsPerMinute: 100000, maxBurst: 100000 } } },
});

/**
 * GET /api/v1/logs has a route of its own (server/http/logs-list-route.ts). Whatever it answers must be
 * what the `logs.list` procedure answers: compared here against the procedure over tRPC (whose
 * output is validated against the contract) and against the OpenAPI adapter (reached by spelling
 * the path with a trailing slash), for pages of every shape and for refusals.
 */
describe("GET /api/v1/logs: its own route answers exactly as the logs.list procedure", () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  let workflowIds: string[];
  const t0 = Date.UTC(2026, 1, 27, 23, 59, 58, 995);

  const headers = (key = tenant.apiKey) => ({ "x-api-key": key });
  const viaRoute = (query: string, key?: string) => server.request(`/api/v1/logs?${query}`, { headers: headers(key) });
  const viaAdapter = (query: string, key?: string) => server.request(`/api/v1/logs/?${query}`, { headers: headers(key) });
  const viaTrpc = async (input: Record<string, unknown>) => {
    const res = await server.request(`/trpc/logs.list?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: headers() });
    expect(res.status).toBe(200);
    return (await res.json()).result.data;
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { LICENSE: HIGH_LIMITS }, clock });
    tenant = await createTenant(server);
    other = await createTenant(server);
    const db = server.deps.db;
    const folderId = await insertFolder(db, tenant.workspaceId, "F");
    workflowIds = [
      await insertWorkflow(db, { workspaceId: tenant.workspaceId, folderId, name: 'Quote " and \\ backslash', description: "Ünïcödé ✓ \u2028 line" }),
      await insertWorkflow(db, { workspaceId: tenant.workspaceId, name: "Plain", description: "" }),
    ];
    const specs = Array.from({ length: 30 }, (_, i) => ({
      workspaceId: tenant.workspaceId,
      workflowId: i % 5 === 4 ? "wf_deleted" : workflowIds[i % 2],
      status: (i % 3 === 0 ? "error" : "success") as "error" | "success",
      trigger: (["api", "webhook", "schedule", "manual", "chat"] as const)[i % 5],
      startedAt: t0 + Math.floor(i / 2) * 7, // pairs share a millisecond
      totalDurationMs: i % 7 === 0 ? null : i * 1001,
      endedAt: i % 7 === 0 ? t0 + i * 3 : undefined,
      costTotal: 0.005 + i * 0.000123456789,
      files: i % 4 === 0 ? JSON.stringify([{ name: `f${i}.txt`, size: i }]) : i % 4 === 1 ? "{broken" : null,
      traceSpans: i % 3 === 1 ? JSON.stringify([{ id: `s${i}`, name: "Call \"x\"", children: [] }]) : i % 3 === 2 ? '{"not":"array"}' : "[]",
      finalOutput: i % 2 === 0 ? JSON.stringify({ text: `out ${i} \u00e9\n\t`, n: i / 3 }) : i % 5 === 1 ? '"just a string"' : null,
      models: i % 6 === 0 ? ["gpt-4o"] : [],
    }));
    await insertLogs(db, specs);
    await insertLogs(db, [{ workspaceId: other.workspaceId, workflowId: "wf_other", startedAt: t0 }]);
  });
  afterAll(() => server.close());

  const queries: Record<string, unknown>[] = [
    {},
    { limit: 7 },
    { limit: 7, order: "asc" },
    { details: "full", includeTraceSpans: true, includeFinalOutput: true },
    { includeFinalOutput: true },
    { includeTraceSpans: true, details: "full", limit: 3 },
    { level: "error", triggers: "api,webhook,manual" },
    { workflowIds: "", minDurationMs: 5000, maxDurationMs: 20000 },
    { minCost: 0.006, maxCost: 0.008, model: "gpt-4o" },
    { startDate: "2026-02-27T23:59:59Z", endDate: "2026-02-28T00:00:00.100Z" },
  ];
  const toQuery = (q: Record<string, unknown>) =>
    new URLSearchParams(Object.entries({ workspaceId: "WS", ...q }).map(([k, v]) => [k, String(v)])).toString();

  it("answers every page shape with the same entries, cursor and limits as the procedure", async () => {
    for (const q of queries) {
      const query = toQuery(q).replace("WS", tenant.workspaceId);
      const route = await viaRoute(query);
      expect(route.status, query).toBe(200);
      expect(route.headers.get("content-type")).toMatch(/^application\/json/);
      expect(route.headers.get("x-ratelimit-limit")).toBe("100000");
      const body = await route.json();
      // Over tRPC the query booleans travel in their text form too.
      const trpcInput = Object.fromEntries(Object.entries(q).map(([k, v]) => [k, typeof v === "boolean" ? String(v) : v]));
      expect(body, query).toEqual(await viaTrpc({ workspaceId: tenant.workspaceId, ...trpcInput }));
      expect(body, query).toEqual(await (await viaAdapter(query)).json());
    }
  });

  it("pages through the same entries with its cursors in both orders", async () => {
    for (const order of ["desc", "asc"]) {
      let cursor: string | undefined;
      const seen: string[] = [];
      for (let page = 0; page < 10; page++) {
        const query = `workspaceId=${tenant.workspaceId}&limit=4&order=${order}${cursor ? `&cursor=${cursor}` : ""}`;
        const body = await (await viaRoute(query)).json();
        expect(body).toEqual(await (await viaAdapter(query)).json());
        seen.push(...body.data.map((e: { id: string }) => e.id));
        cursor = body.nextCursor ?? undefined;
        if (!cursor || body.data.length === 0) break;
      }
      expect(new Set(seen).size).toBe(30);
    }
  });

  it("refuses like the procedure: same status, code, details and rate-limit headers", async () => {
    const cases = [
      { query: `workspaceId=${tenant.workspaceId}&limit=0`, key: undefined },
      { query: `workspaceId=${tenant.workspaceId}&limit=abc`, key: undefined },
      { query: `workspaceId=${tenant.workspaceId}&level=loud&order=up`, key: undefined },
      { query: `workspaceId=${tenant.workspaceId}&workspaceId=again`, key: undefined },
      { query: `workspaceId=${tenant.workspaceId}&cursor=garbage`, key: undefined },
      { query: "limit=5", key: undefined },
      { query: `workspaceId=${other.workspaceId}`, key: undefined },
      { query: `workspaceId=${tenant.workspaceId}`, key: "wrong-key" },
    ];
    for (const { query, key } of cases) {
      const [route, adapter] = [await viaRoute(query, key), await viaAdapter(query, key)];
      expect(route.status, query).toBe(adapter.status);
      expect(route.status, query).toBeGreaterThanOrEqual(400);
      const [a, b] = [await route.json(), await adapter.json()];
      expect({ ...a, requestId: "" }, query).toEqual({ ...b, requestId: "" });
      expect(route.headers.get("x-ratelimit-limit"), query).toBe(adapter.headers.get("x-ratelimit-limit"));
    }
  });
});
