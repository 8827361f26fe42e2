import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { completeLog, insertLog, insertLogs } from "../helpers/log-rows.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const HIGH_LIMITS = JSON.stringify({
  payload: { licensee: "test", plan: "enterprise", rateLimits: { api: { requestsPerMinute: 100000, maxBurst: 100000 } } },
});

type Page = { data: { id: string; startedAt: string }[]; nextCursor: string | null };

describe("GET /api/v1/logs?order=asc: tailing new entries with the cursor", () => {
  const T = Date.UTC(2026, 0, 15, 12, 0, 0);
  const clock = new ManualClock(T);
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { LICENSE: HIGH_LIMITS }, clock });
  });
  afterAll(() => server.close());

  async function page(tenant: Tenant, query: string): Promise<Page> {
    const res = await server.request(`/api/v1/logs?workspaceId=${tenant.workspaceId}&order=asc&${query}`, {
      headers: { "x-api-key": tenant.apiKey },
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  }

  /** Polls until a page comes back empty; answers what was read and the cursor to poll with next. */
  async function drain(tenant: Tenant, cursor: string | null, limit = 5) {
    const ids: string[] = [];
    for (;;) {
      const body = await page(tenant, `limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      expect(body.nextCursor).toEqual(expect.any(String));
      ids.push(...body.data.map((e) => e.id));
      if (body.data.length === 0) {
        if (cursor) expect(body.nextCursor).toBe(cursor);
        return { ids, cursor: body.nextCursor as string };
      }
      cursor = body.nextCursor;
    }
  }

  it("returns exactly the new completed runs on each poll; a running one appears once it completes", async () => {
    clock.set(T);
    const tenant = await createTenant(server);
    const db = server.deps.db;
    const ws = tenant.workspaceId;
    const first = await insertLogs(
      db,
      Array.from({ length: 12 }, (_, i) => ({ workspaceId: ws, workflowId: "wf_1", startedAt: T - 100_000 + Math.floor(i / 2) * 1000 })),
    );
    const seen: string[] = [];
    let { ids, cursor } = await drain(tenant, null);
    seen.push(...ids);
    expect(ids).toEqual(first.sort((a, b) => a.startedAt - b.startedAt || (a.id! < b.id! ? -1 : 1)).map((r) => r.id));

    // A run in progress, one completed run older than it and two newer ones.
    const running = await insertLog(db, { workspaceId: ws, workflowId: "wf_1", status: "running", startedAt: T - 40_000 });
    const older = await insertLog(db, { workspaceId: ws, workflowId: "wf_1", startedAt: T - 45_000 });
    const newer1 = await insertLog(db, { workspaceId: ws, workflowId: "wf_1", startedAt: T - 30_000 });
    const newer2 = await insertLog(db, { workspaceId: ws, workflowId: "wf_1", startedAt: T - 20_000 });
    clock.advance(10_000);

    ({ ids, cursor } = await drain(tenant, cursor));
    expect(ids).toEqual([older.id]);
    seen.push(...ids);
    ({ ids, cursor } = await drain(tenant, cursor));
    expect(ids).toEqual([]);

    await completeLog(db, running.id!, { endedAt: T + 5_000 });
    ({ ids, cursor } = await drain(tenant, cursor, 2));
    expect(ids).toEqual([running.id, newer1.id, newer2.id]);
    seen.push(...ids);

    ({ ids, cursor } = await drain(tenant, cursor));
    expect(ids).toEqual([]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(16);
  });

  it("never returns an entry that started within the 2 s settle window", async () => {
    clock.set(T);
    const tenant = await createTenant(server);
    const db = server.deps.db;
    const settled = await insertLog(db, { workspaceId: tenant.workspaceId, workflowId: "wf_1", startedAt: T - 2_001 });
    const fresh = await insertLog(db, { workspaceId: tenant.workspaceId, workflowId: "wf_1", startedAt: T - 1_000 });
    const twin = await insertLog(db, { workspaceId: tenant.workspaceId, workflowId: "wf_1", startedAt: T - 1_000 });

    let { ids, cursor } = await drain(tenant, null);
    expect(ids).toEqual([settled.id]);

    clock.advance(1_000); // fresh started exactly now - 2000 ms: still inside the window
    ({ ids, cursor } = await drain(tenant, cursor));
    expect(ids).toEqual([]);

    clock.advance(1);
    ({ ids, cursor } = await drain(tenant, cursor));
    expect(ids).toEqual([fresh.id, twin.id].sort());

    // desc does not wait: it lists every completed run at once.
    const desc = await server.request(`/api/v1/logs?workspaceId=${tenant.workspaceId}`, { headers: { "x-api-key": tenant.apiKey } });
    expect((await desc.json()).data).toHaveLength(3);
  });

  it("an empty first page hands back a cursor at startDate; runs starting exactly then are returned later", async () => {
    clock.set(T);
    const tenant = await createTenant(server);
    const start = T + 60_000;
    const startDate = new Date(start).toISOString();
    const empty = await page(tenant, `startDate=${startDate}`);
    expect(empty.data).toEqual([]);
    expect(empty.nextCursor).toEqual(expect.any(String));

    const before = await insertLog(server.deps.db, { workspaceId: tenant.workspaceId, workflowId: "wf_1", startedAt: start - 1 });
    const atStart = await insertLog(server.deps.db, { workspaceId: tenant.workspaceId, workflowId: "wf_1", startedAt: start });
    clock.advance(120_000);
    const next = await page(tenant, `startDate=${startDate}&cursor=${empty.nextCursor}`);
    expect(next.data.map((e) => e.id)).toEqual([atStart.id]);
    expect(next.data.map((e) => e.id)).not.toContain(before.id);
  });

  it("without startDate, an empty first page's cursor starts from the beginning", async () => {
    clock.set(T);
    const tenant = await createTenant(server);
    const empty = await page(tenant, "");
    expect(empty.data).toEqual([]);
    const old = await insertLog(server.deps.db, { workspaceId: tenant.workspaceId, workflowId: "wf_1", startedAt: Date.UTC(2000, 0, 1) });
    const next = await page(tenant, `cursor=${empty.nextCursor}`);
    expect(next.data.map((e) => e.id)).toEqual([old.id]);
  });
});
