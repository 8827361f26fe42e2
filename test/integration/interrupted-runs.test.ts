import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { executionLogs } from "../../server/db/schema/index.ts";
import { closeInterruptedRuns, INTERRUPTED_RUN_ERROR, LEASE_GRACE_MS } from "../../server/services/executions/close-interrupted-runs.ts";
import { createScheduler } from "../../server/workers/scheduler.ts";
import { PROCESS_LEASE_MS } from "../../server/workers/process-lease.ts";
import { startServer } from "../../server/start.ts";
import { insertLog } from "../helpers/log-rows.ts";

describe("runs interrupted by a stop of the service", () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-interrupted-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", DATA_DIR: dir, ADMIN_API_KEY: "interrupted-admin-key-0123456789" };

  it("are closed as error on the next start, so no log stays running and ascending pages move on", async () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 1, 12, 0, 0));
    const first = await startServer({ env, clock });
    const interrupted = await insertLog(first.deps.db, {
      workspaceId: "ws_x",
      workflowId: "wf_x",
      status: "running",
      startedAt: clock.now() - 60_000,
    });
    const finished = await insertLog(first.deps.db, { workspaceId: "ws_x", workflowId: "wf_x", status: "success", startedAt: clock.now() - 30_000 });
    await first.close();

    clock.advance(5_000);
    const second = await startServer({ env, clock });
    const row = await second.deps.db.select().from(executionLogs).where(eq(executionLogs.id, interrupted.id as string)).get();
    expect(row).toMatchObject({ status: "error", level: "error", error: INTERRUPTED_RUN_ERROR, endedAt: clock.now(), totalDurationMs: 65_000 });
    const untouched = await second.deps.db.select().from(executionLogs).where(eq(executionLogs.id, finished.id as string)).get();
    expect(untouched?.status).toBe("success");
    await second.close();
  });

  it("a process that is told not to (a cluster worker) leaves running rows alone", async () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 2, 12, 0, 0));
    const server = await startServer({ env, clock });
    const running = await insertLog(server.deps.db, { workspaceId: "ws_y", workflowId: "wf_y", status: "running", startedAt: clock.now() - 1_000 });
    await server.close();
    const worker = await startServer({ env, clock, closeInterruptedRuns: false });
    const row = await worker.deps.db.select().from(executionLogs).where(eq(executionLogs.id, running.id as string)).get();
    expect(row?.status).toBe("running");
    await worker.close();
  });

  it("with several processes on one database: closes a run only once its process's lease has expired", async () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 3, 12, 0, 0));
    const a = await startServer({ env, clock, workers: false });
    const b = await startServer({ env, clock, workers: false });
    const owned = await insertLog(a.deps.db, {
      workspaceId: "ws_z",
      workflowId: "wf_z",
      status: "running",
      startedAt: clock.now() - 1_000,
      ownerProcess: a.deps.processId,
    });
    const read = async () => (await b.deps.db.select().from(executionLogs).where(eq(executionLogs.id, owned.id as string)).get())?.status;
    // B starting, or sweeping, leaves a live process's run alone, however old.
    expect(await closeInterruptedRuns({ ctx: b.deps, before: clock.now() + 1 })).toBe(0);
    clock.advance(PROCESS_LEASE_MS + LEASE_GRACE_MS - 1);
    expect(await closeInterruptedRuns({ ctx: b.deps })).toBe(0);
    expect(await read()).toBe("running");
    // A process never takes its own runs as interrupted, whatever its lease says.
    clock.advance(2);
    expect(await closeInterruptedRuns({ ctx: a.deps })).toBe(0);
    // A stops renewing (it died): once its lease has run out (and the grace after it), the run is closed.
    expect(await closeInterruptedRuns({ ctx: b.deps })).toBe(1);
    expect(await read()).toBe("error");
    await a.close();
    await b.close();
  });

  it("the scheduler's leader closes the runs of a process that stopped without finishing them", async () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 4, 12, 0, 0));
    const a = await startServer({ env, clock, workers: false });
    const b = await startServer({ env, clock, workers: false });
    const owned = await insertLog(a.deps.db, { workspaceId: "ws_w", workflowId: "wf_w", status: "running", startedAt: clock.now(), ownerProcess: a.deps.processId });
    await a.close(); // a clean stop gives its lease up at once
    const leader = createScheduler(b.deps, { ownerId: "leader" });
    await leader.runOnce();
    const row = await b.deps.db.select().from(executionLogs).where(eq(executionLogs.id, owned.id as string)).get();
    expect(row).toMatchObject({ status: "error", error: INTERRUPTED_RUN_ERROR });
    await leader.stop();
    await b.close();
  });
});

