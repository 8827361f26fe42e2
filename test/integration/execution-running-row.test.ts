import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { executionLogs } from "../../server/db/schema/index.ts";
import type { ExecutorDeps, WorkflowState } from "../../server/executor/types.ts";
import { runExecution } from "../../server/services/executions/run-execution.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** start -> api -> response, where the api call waits until the test releases it. */
const slow: WorkflowState = {
  blocks: {
    start: { type: "start", name: "Start" },
    call: { type: "api", name: "Call", params: { url: "http://held.example/", method: "GET", retries: 0 } },
    respond: { type: "response", name: "Respond", params: { data: "<call.data>" } },
  },
  edges: [
    { source: "start", target: "call" },
    { source: "call", target: "respond" },
  ],
  loops: {},
  parallels: {},
};

function heldFetch(): { fetch: ExecutorDeps["fetch"]; release(): void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release: () => release(),
    fetch: async (url) => {
      await gate;
      const body = new TextEncoder().encode('{"done":true}');
      return { status: 200, headers: new Headers({ "content-type": "application/json" }), url: String(url), body, text: () => '{"done":true}' };
    },
  };
}

describe("an execution's running log row", () => {
  let server: TestServer;
  let tenant: Tenant;
  const workflow = { id: "wf_rows", workspaceId: "" };

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server);
    workflow.workspaceId = tenant.workspaceId;
  });
  afterAll(() => server.close());

  it("a run shows as running while it runs, then is completed in place as one row", async () => {
    const held = heldFetch();
    const pending = runExecution({
      ctx: server.deps,
      workflow,
      deployment: { id: null, state: slow },
      input: {},
      trigger: "api",
      userId: tenant.userId,
      executionId: "exec_slow",
      executorDeps: { fetch: held.fetch },
    });
    const row = () =>
      server.deps.db.select({ status: executionLogs.status }).from(executionLogs).where(eq(executionLogs.executionId, "exec_slow")).get();
    await vi.waitFor(async () => expect((await row())?.status).toBe("running"), { timeout: 5_000 });
    held.release();
    const run = await pending;
    expect(run.output).toEqual({ done: true });
    const rows = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.executionId, "exec_slow")).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "success", level: "info", trigger: "api" });
  });

  it("the running row exists before the first block does any work", async () => {
    const held = heldFetch();
    let seenDuringRun: string | undefined;
    const fetch: ExecutorDeps["fetch"] = async (url, init) => {
      seenDuringRun = (await server.deps.db.select({ status: executionLogs.status }).from(executionLogs).where(eq(executionLogs.executionId, "exec_zero")).get())?.status;
      held.release();
      return held.fetch(url, init);
    };
    await runExecution({
      ctx: server.deps,
      workflow,
      deployment: { id: null, state: slow },
      input: {},
      trigger: "webhook",
      userId: tenant.userId,
      executionId: "exec_zero",
      executorDeps: { fetch },
    });
    expect(seenDuringRun).toBe("running");
  });
});
