import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { executionLogs, jobs, scheduleStates } from "../../server/db/schema/index.ts";
import { createJobWorker } from "../../server/jobs/job-worker.ts";
import { EXECUTION_JOB, executionJobHandler } from "../../server/services/executions/execution-job.ts";
import { createScheduler, tickExecutionId } from "../../server/workers/scheduler.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const MINUTE = 60_000;

describe("schedule trigger: cron on the start block of a deployed workflow", () => {
  // 08:02 UTC: the */5 schedule's next tick is 08:05.
  const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 2, 0));
  let server: TestServer;
  let tenant: Tenant;
  let workflowId: string;
  const headers = () => ({ "x-api-key": tenant.apiKey });
  const scheduler = (ownerId: string) => createScheduler(server.deps, { ownerId, leaseMs: 15_000 });
  const queued = async () => (await server.deps.db.select().from(jobs)).filter((j) => j.kind === EXECUTION_JOB);

  beforeAll(async () => {
    server = await startTestServer({ clock, workers: false });
    tenant = await createTenant(server);
    const state = {
      blocks: {
        start: { type: "start", name: "Start", params: { trigger: "schedule", cron: "*/5 * * * *", timezone: "UTC" } },
        out: { type: "response", name: "Out", params: { data: { at: "<start.scheduledAt>" } } },
      },
      edges: [{ source: "start", target: "out" }],
    };
    const created = await server.request("/api/workflows", { method: "POST", headers: headers(), json: { workspaceId: tenant.workspaceId, name: "Every 5", state } });
    expect(created.status).toBe(201);
    workflowId = (await created.json()).data.id;
    expect((await server.request(`/api/workflows/${workflowId}/deploy`, { method: "POST", headers: headers() })).ok).toBe(true);
  });
  afterAll(() => server.close());

  it("enqueues each tick exactly once, only from the lease holder", async () => {
    const a = scheduler("a");
    const b = scheduler("b");
    expect(await a.runOnce()).toBe(0); // 08:02: a leads, nothing due yet
    clock.advance(10_000);
    expect(await a.runOnce()).toBe(0); // renews its lease
    clock.set(Date.UTC(2026, 4, 10, 8, 5, 0) - 1_000);
    expect(await a.runOnce()).toBe(0);
    clock.advance(1_000); // 08:05
    expect(await b.runOnce()).toBe(0); // b does not hold the lease
    expect(await a.runOnce()).toBe(1);
    expect(await a.runOnce()).toBe(0); // the same tick again: nothing
    const [job] = await queued();
    expect(job.id).toBe(`schedule:${workflowId}:${Date.UTC(2026, 4, 10, 8, 5, 0)}`);
    expect(JSON.parse(job.payload)).toMatchObject({
      trigger: "schedule",
      userId: tenant.userId,
      executionId: tickExecutionId(workflowId, Date.UTC(2026, 4, 10, 8, 5, 0)),
      input: { scheduledAt: "2026-05-10T08:05:00.000Z" },
    });
    // Two leaders for a moment (a lease that ran out mid-round): the same tick again is nothing new.
    await server.deps.database.client.execute("DELETE FROM leases");
    await server.deps.database.client.execute("UPDATE schedule_states SET last_tick_at = NULL, next_tick_at = 0");
    expect(await b.runOnce()).toBe(1);
    expect(await queued()).toHaveLength(1);
    const rows = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.workflowId, workflowId));
    expect(rows).toHaveLength(1);
    await server.deps.database.client.execute("DELETE FROM leases");
    expect(await a.runOnce()).toBe(0);
  });

  it("runs the queued tick as a schedule-triggered execution", async () => {
    const worker = createJobWorker({ database: server.deps.database, clock, logger: server.deps.logger, handlers: { [EXECUTION_JOB]: executionJobHandler(server.deps) } });
    expect(await worker.runOnce()).toBe(1);
    const [log] = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.workflowId, workflowId));
    expect(log).toMatchObject({ trigger: "schedule", status: "success", userId: tenant.userId });
    expect(JSON.parse(log.finalOutput as string)).toEqual({ at: "2026-05-10T08:05:00.000Z" });
  });

  it("after downtime runs only the latest missed tick; another process takes over once the lease expires", async () => {
    clock.set(Date.UTC(2026, 4, 10, 9, 3, 0)); // 08:10 ... 09:00 missed while nobody ran
    const b = scheduler("b");
    expect(await b.runOnce()).toBe(1); // a's lease ran out: b leads and catches up 09:00 only
    const a = scheduler("a");
    expect(await a.runOnce()).toBe(0); // b holds the lease
    const ticks = (await queued()).map((j) => j.id).sort();
    expect(ticks).toEqual([`schedule:${workflowId}:${Date.UTC(2026, 4, 10, 8, 5)}`, `schedule:${workflowId}:${Date.UTC(2026, 4, 10, 9, 0)}`]);
    clock.advance(20 * MINUTE); // b stops renewing: a takes over and catches up 09:20
    expect(await a.runOnce()).toBe(1);
    expect((await queued()).length).toBe(3);
  });

  it("stops when undeployed", async () => {
    expect((await server.request(`/api/workflows/${workflowId}/undeploy`, { method: "POST", headers: headers() })).ok).toBe(true);
    clock.advance(30 * MINUTE);
    expect(await scheduler("a").runOnce()).toBe(0);
    expect((await queued()).length).toBe(3);
  });
});

describe("schedule trigger: a tick the owner cannot pay for", () => {
  it("is skipped with a warning and the schedule moves on", async () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 2, 0));
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (msg: string) => void warnings.push(msg) };
    const license = JSON.stringify({ payload: { licensee: "test", plan: "free", usageLimitUsd: 0 } });
    const server = await startTestServer({ clock, workers: false, logger, env: { LICENSE: license } });
    try {
      const tenant = await createTenant(server);
      const headers = { "x-api-key": tenant.apiKey };
      const state = { blocks: { start: { type: "start", name: "Start", params: { trigger: "schedule", cron: "*/5 * * * *" } } }, edges: [] };
      const created = await server.request("/api/workflows", { method: "POST", headers, json: { workspaceId: tenant.workspaceId, name: "S", state } });
      const id = (await created.json()).data.id;
      await server.request(`/api/workflows/${id}/deploy`, { method: "POST", headers });
      const scheduler = createScheduler(server.deps, { ownerId: "only" });
      clock.set(Date.UTC(2026, 4, 10, 8, 5, 0));
      expect(await scheduler.runOnce()).toBe(0);
      expect(warnings).toContain("schedule tick skipped");
      expect(await server.deps.db.select().from(jobs)).toEqual([]);
      const [position] = await server.deps.db.select().from(scheduleStates).where(eq(scheduleStates.workflowId, id));
      expect(position).toMatchObject({ lastTickAt: Date.UTC(2026, 4, 10, 8, 5), nextTickAt: Date.UTC(2026, 4, 10, 8, 10) });
    } finally {
      await server.close();
    }
  });
});

describe("schedule trigger: redeploying with another cron", () => {
  it("starts the new schedule at once instead of waiting for the old one's next tick", async () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 2, 0));
    const server = await startTestServer({ clock, workers: false });
    try {
      const tenant = await createTenant(server);
      const headers = { "x-api-key": tenant.apiKey };
      const state = (cron: string) => ({ blocks: { start: { type: "start", name: "Start", params: { trigger: "schedule", cron } } }, edges: [] });
      const created = await server.request("/api/workflows", { method: "POST", headers, json: { workspaceId: tenant.workspaceId, name: "S", state: state("0 0 1 * *") } });
      const id = (await created.json()).data.id;
      await server.request(`/api/workflows/${id}/deploy`, { method: "POST", headers });
      const scheduler = createScheduler(server.deps, { ownerId: "only" });
      expect(await scheduler.runOnce()).toBe(0); // next tick: 1 June
      await server.request(`/api/workflows/${id}`, { method: "PUT", headers, json: { state: state("*/5 * * * *") } });
      await server.request(`/api/workflows/${id}/deploy`, { method: "POST", headers });
      clock.set(Date.UTC(2026, 4, 10, 8, 5, 0));
      expect(await scheduler.runOnce()).toBe(1);
    } finally {
      await server.close();
    }
  });
});
