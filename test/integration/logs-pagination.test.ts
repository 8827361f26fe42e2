import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { insertFolder, insertLogs, insertWorkflow, type LogRowSpec } from "../helpers/log-rows.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const HIGH_LIMITS = JSON.stringify({
  payload: { licensee: "test", plan: "enterprise", rateLimits: { api: { requestsPerMinute: 100000, maxBurst: 100000 } } },
});
const TRIGGERS = ["api", "webhook", "schedule", "manual", "chat"] as const;
const MODELS = ["gpt-4o", "claude-sonnet"];

type Row = {
  id: string;
  workflowId: string;
  executionId: string;
  status: "running" | "success" | "error";
  trigger: (typeof TRIGGERS)[number];
  startedAt: number;
  totalDurationMs: number;
  costTotal: number;
  models: string[];
};

describe("GET /api/v1/logs: pagination and filters", () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 20));
  const t0 = Date.UTC(2026, 0, 10);
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  let folder1: string;
  let folder2: string;
  let wf: string[];
  let rows: Row[];

  /** Every entry the query yields, following nextCursor page by page. */
  async function collect(query: string, limit: number, order: "asc" | "desc") {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const path = `/api/v1/logs?workspaceId=${tenant.workspaceId}&limit=${limit}&order=${order}&${query}${cursor ? `&cursor=${cursor}` : ""}`;
      const res = await server.request(path, { headers: { "x-api-key": tenant.apiKey } });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.data.length).toBeLessThanOrEqual(limit);
      ids.push(...body.data.map((e: { id: string }) => e.id));
      pages++;
      if (order === "desc" && body.nextCursor === null) break;
      if (order === "asc") {
        expect(body.nextCursor).toEqual(expect.any(String));
        if (body.data.length === 0) break;
      }
      cursor = body.nextCursor;
      if (pages > 500) throw new Error("runaway paging");
    }
    return { ids, pages };
  }

  function expected(filter: (r: Row) => boolean, order: "asc" | "desc") {
    const oldestRunning = Math.min(...rows.filter((r) => r.status === "running").map((r) => r.startedAt));
    const sorted = rows
      .filter((r) => r.status !== "running" && (order === "desc" || r.startedAt < oldestRunning))
      .filter(filter)
      .sort((a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const ids = sorted.map((r) => r.id);
    return order === "asc" ? ids : ids.reverse();
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { LICENSE: HIGH_LIMITS }, clock });
    tenant = await createTenant(server);
    other = await createTenant(server);
    const db = server.deps.db;
    folder1 = await insertFolder(db, tenant.workspaceId, "One");
    folder2 = await insertFolder(db, tenant.workspaceId, "Two");
    wf = [
      await insertWorkflow(db, { workspaceId: tenant.workspaceId, folderId: folder1 }),
      await insertWorkflow(db, { workspaceId: tenant.workspaceId, folderId: folder2 }),
      await insertWorkflow(db, { workspaceId: tenant.workspaceId }),
    ];
    const specs: LogRowSpec[] = [];
    for (let i = 0; i < 90; i++) {
      specs.push({
        workspaceId: tenant.workspaceId,
        workflowId: wf[i % 3],
        // Runs of three share a start time: pages must split ties by id without gaps or repeats.
        startedAt: t0 + Math.floor(i / 3) * 60_000,
        // The newest runs are still in progress: never listed, and asc pages stop before them.
        status: i >= 87 ? "running" : i % 4 === 0 ? "error" : "success",
        trigger: TRIGGERS[i % 5],
        totalDurationMs: (i * 137) % 5000,
        costTotal: 0.005 + (i % 7) * 0.01,
        models: i % 5 === 1 ? [MODELS[0]] : i % 5 === 2 ? [MODELS[0], MODELS[1]] : [],
      });
    }
    const inserted = await insertLogs(db, specs);
    rows = inserted.map((r, i) => ({
      id: r.id!,
      workflowId: r.workflowId,
      executionId: r.executionId!,
      status: r.status!,
      trigger: r.trigger!,
      startedAt: r.startedAt,
      totalDurationMs: r.totalDurationMs!,
      costTotal: r.costTotal!,
      models: specs[i].models ?? [],
    }));
    // Another workspace running the "same" workflow ids must never leak in.
    await insertLogs(db, wf.map((workflowId, i) => ({ workspaceId: other.workspaceId, workflowId, startedAt: t0 + i * 60_000 })));
  });
  afterAll(() => server.close());

  it("pages through everything in both orders without gaps or duplicates, ties included", async () => {
    for (const order of ["desc", "asc"] as const) {
      const { ids, pages } = await collect("", 7, order);
      expect(pages).toBeGreaterThan(3);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected(() => true, order));
    }
  });

  it("pages of one entry cross every tie", async () => {
    const { ids } = await collect("", 1, "desc");
    expect(ids).toEqual(expected(() => true, "desc"));
  });

  it("the last desc page has nextCursor null; a full page before it does not", async () => {
    const total = expected(() => true, "desc").length;
    const res = await server.request(`/api/v1/logs?workspaceId=${tenant.workspaceId}&limit=${total}`, { headers: { "x-api-key": tenant.apiKey } });
    expect((await res.json()).nextCursor).toBeNull();
    const short = await server.request(`/api/v1/logs?workspaceId=${tenant.workspaceId}&limit=${total - 1}`, { headers: { "x-api-key": tenant.apiKey } });
    expect((await short.json()).nextCursor).toEqual(expect.any(String));
  });

  const at = (ms: number) => new Date(ms).toISOString();
  const filters: [string, string | (() => string), (r: Row) => boolean][] = [
    ["workflowIds", () => `workflowIds=${wf[0]},${wf[2]}`, (r) => r.workflowId === wf[0] || r.workflowId === wf[2]],
    ["workflowIds with blank items", () => `workflowIds=,${wf[1]},,`, (r) => r.workflowId === wf[1]],
    ["empty workflowIds filters nothing", "workflowIds=", () => true],
    ["folderIds", () => `folderIds=${folder2}`, (r) => r.workflowId === wf[1]],
    ["folderIds (two)", () => `folderIds=${folder1},${folder2}`, (r) => r.workflowId !== wf[2]],
    ["triggers", "triggers=api,chat", (r) => r.trigger === "api" || r.trigger === "chat"],
    ["level=error", "level=error", (r) => r.status === "error"],
    ["level=info", "level=info", (r) => r.status === "success"],
    ["startDate inclusive", () => `startDate=${at(t0 + 10 * 60_000)}`, (r) => r.startedAt >= t0 + 10 * 60_000],
    ["endDate inclusive", () => `endDate=${at(t0 + 10 * 60_000)}`, (r) => r.startedAt <= t0 + 10 * 60_000],
    ["date range", () => `startDate=${at(t0 + 5 * 60_000)}&endDate=${at(t0 + 8 * 60_000)}`, (r) => r.startedAt >= t0 + 5 * 60_000 && r.startedAt <= t0 + 8 * 60_000],
    ["executionId", () => `executionId=${rows[40].executionId}`, (r) => r.id === rows[40].id],
    ["minDurationMs", "minDurationMs=2500", (r) => r.totalDurationMs >= 2500],
    ["maxDurationMs", "maxDurationMs=1000", (r) => r.totalDurationMs <= 1000],
    ["minCost", "minCost=0.035", (r) => r.costTotal >= 0.035],
    ["maxCost", "maxCost=0.025", (r) => r.costTotal <= 0.025],
    ["model", "model=claude-sonnet", (r) => r.models.includes("claude-sonnet")],
    ["model (shared)", "model=gpt-4o", (r) => r.models.includes("gpt-4o")],
    [
      "combined",
      () => `folderIds=${folder1},${folder2}&triggers=api,webhook,manual&level=info&minDurationMs=500&maxCost=0.05&startDate=${at(t0 + 60_000)}`,
      (r) =>
        r.workflowId !== wf[2] &&
        ["api", "webhook", "manual"].includes(r.trigger) &&
        r.status === "success" &&
        r.totalDurationMs >= 500 &&
        r.costTotal <= 0.05 &&
        r.startedAt >= t0 + 60_000,
    ],
    [
      "workflowIds and folderIds intersect",
      () => `workflowIds=${wf[0]},${wf[2]}&folderIds=${folder1},${folder2}`,
      (r) => r.workflowId === wf[0],
    ],
    ["model combined with level", "model=gpt-4o&level=error&triggers=webhook,schedule", (r) => r.models.includes("gpt-4o") && r.status === "error" && ["webhook", "schedule"].includes(r.trigger)],
    [
      "model within a date range",
      () => `model=gpt-4o&startDate=${at(t0 + 5 * 60_000)}&endDate=${at(t0 + 12 * 60_000)}`,
      (r) => r.models.includes("gpt-4o") && r.startedAt >= t0 + 5 * 60_000 && r.startedAt <= t0 + 12 * 60_000,
    ],
  ];
  for (const [name, query, predicate] of filters) {
    it(`filter: ${name}`, async () => {
      const q = typeof query === "string" ? query : query();
      const want = expected(predicate, "desc");
      const { ids } = await collect(q, 4, "desc");
      expect(ids).toEqual(want);
      const asc = await collect(q, 1000, "asc");
      expect(asc.ids).toEqual([...want].reverse());
      if (name !== "empty workflowIds filters nothing") expect(want.length).toBeLessThan(expected(() => true, "desc").length);
    });
  }

  it("filters that match nothing answer an empty page", async () => {
    for (const q of ["model=unknown", "workflowIds=wf_nope", `folderIds=fld_nope`, "executionId=nope", "minCost=100"]) {
      expect((await collect(q, 10, "desc")).ids).toEqual([]);
    }
  });

  it("keeps workspaces apart: the other tenant sees only its own three entries", async () => {
    const res = await server.request(`/api/v1/logs?workspaceId=${other.workspaceId}&workflowIds=${wf.join(",")}`, {
      headers: { "x-api-key": other.apiKey },
    });
    const body = await res.json();
    expect(body.data).toHaveLength(3);
    expect(body.data.every((e: { id: string }) => !rows.some((r) => r.id === e.id))).toBe(true);
  });
});
