import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { executionLogs, jobs } from "../../server/db/schema/index.ts";
import { createJobWorker } from "../../server/jobs/job-worker.ts";
import { createScheduler } from "../../server/workers/scheduler.ts";
import { closeInterruptedRuns, INTERRUPTED_RUN_ERROR } from "../../server/services/executions/close-interrupted-runs.ts";
import { EXECUTION_JOB, executionJobHandler } from "../../server/services/executions/execution-job.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** Queued executions whose worker was lost: the job is taken again and the run recorded once. */
describe("queued executions after a lost worker", () => {
  const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 30, 0));
  let server: TestServer;
  let tenant: Tenant;
  let workflowId: string;
  let calls = 0;

  const worker = () =>
    createJobWorker({
      database: server.deps.database,
      clock,
      logger: server.deps.logger,
      leaseMs: 60_000,
      handlers: {
        [EXECUTION_JOB]: async (job) => {
          calls++;
          return executionJobHandler(server.deps)(job);
        },
      },
    });

  async function queue(): Promise<{ jobId: string; executionId: string }> {
    const res = await server.request(`/api/workflows/${workflowId}/execute`, {
      method: "POST",
      headers: { "x-api-key": tenant.apiKey, "x-execution-mode": "async" },
      json: { v: 3 },
    });
    expect(res.status).toBe(202);
    return res.json();
  }

  beforeAll(async () => {
    server = await startTestServer({ clock, workers: false });
    tenant = await createTenant(server);
    const state = {
      blocks: { start: { type: "start", name: "Start" }, out: { type: "response", name: "Out", params: { data: { v: "<start.v>" } } } },
      edges: [{ source: "start", target: "out" }],
    };
    const headers = { "x-api-key": tenant.apiKey };
    const created = await server.request("/api/workflows", { method: "POST", headers, json: { workspaceId: tenant.workspaceId, name: "F", state } });
    workflowId = (await created.json()).data.id;
    await server.request(`/api/workflows/${workflowId}/deploy`, { method: "POST", headers });
  });
  afterAll(() => server.close());

  it("writes the run's running row with the job, and completes that row even after a lost attempt", async () => {
    const acceptedAt = clock.now();
    const { jobId, executionId } = await queue();
    const [queuedRow] = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, executionId));
    expect(queuedRow).toMatchObject({ status: "running", startedAt: acceptedAt, trigger: "api" });
    // The lost attempt: claimed, then nothing. A restart meanwhile leaves the run alone: its job is pending.
    await server.deps.database.client.execute({ sql: "UPDATE jobs SET status = 'processing', attempts = 1, lease_owner = 'gone', lease_expires_at = ? WHERE id = ?", args: [clock.now() + 1000, jobId] });
    expect(await closeInterruptedRuns({ ctx: server.deps, before: clock.now() + 1 })).toBe(0);

    expect(await worker().runOnce()).toBe(0); // the lease still holds
    clock.advance(2000);
    calls = 0;
    expect(await worker().runOnce()).toBe(1);
    expect(calls).toBe(1);
    const rows = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, executionId));
    expect(rows).toHaveLength(1);
    // Completed in place, with the time the run really started.
    expect(rows[0]).toMatchObject({ id: queuedRow.id, status: "success", startedAt: acceptedAt + 2000 });
    const [job] = await server.deps.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(job).toMatchObject({ status: "completed", attempts: 2 });
    expect(JSON.parse(job.result as string)).toMatchObject({ success: true, output: { v: 3 } });
  });

  it("answers from the log when the lost attempt had finished the run: the workflow is not run twice", async () => {
    const { jobId, executionId } = await queue();
    expect(await worker().runOnce()).toBe(1);
    const [done] = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, executionId));
    // As if the worker died after recording the run but before completing the job.
    await server.deps.database.client.execute({
      sql: "UPDATE jobs SET status = 'processing', lease_owner = 'gone', lease_expires_at = ?, result = NULL WHERE id = ?",
      args: [clock.now() - 1, jobId],
    });
    await server.deps.db.update(executionLogs).set({ finalOutput: JSON.stringify({ v: "recorded" }) }).where(eq(executionLogs.id, done.id));
    expect(await worker().runOnce()).toBe(1);
    const rows = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, executionId));
    expect(rows).toHaveLength(1);
    const status = await (await server.request(`/api/jobs/${jobId}`, { headers: { "x-api-key": tenant.apiKey } })).json();
    expect(status).toMatchObject({ status: "completed", output: { v: "recorded" }, metadata: { attempts: 2 } });
  });

  it("closes the log of a queued run whose job ran out of attempts (no log stays running)", async () => {
    const { jobId, executionId } = await queue();
    // Every attempt's worker was lost: the job ends failed without any worker to complete the run.
    await server.deps.database.client.execute({
      sql: "UPDATE jobs SET status = 'failed', attempts = 3, last_error = 'worker lost 3 times', completed_at = ? WHERE id = ?",
      args: [clock.now(), jobId],
    });
    const scheduler = createScheduler(server.deps, { ownerId: "sweeper" });
    await scheduler.runOnce();
    const [row] = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, executionId));
    expect(row).toMatchObject({ status: "error", level: "error", error: "The queued run could not be completed: worker lost 3 times" });
    await scheduler.stop();
  });

  it("a restart still closes a run whose job is finished or that has no job", async () => {
    await server.deps.db.insert(executionLogs).values({
      id: "log_sync_orphan",
      workspaceId: tenant.workspaceId,
      workflowId,
      executionId: "exec_sync_orphan",
      userId: tenant.userId,
      status: "running",
      level: "info",
      trigger: "api",
      startedAt: clock.now() - 5,
    });
    expect(await closeInterruptedRuns({ ctx: server.deps, before: clock.now() })).toBe(1);
    const [row] = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.id, "log_sync_orphan"));
    expect(row).toMatchObject({ status: "error", error: INTERRUPTED_RUN_ERROR });
  });
});
