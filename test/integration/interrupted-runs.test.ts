import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { executionLogs } from "../../server/db/schema/index.ts";
import { INTERRUPTED_RUN_ERROR } from "../../server/services/executions/close-interrupted-runs.ts";
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
});
