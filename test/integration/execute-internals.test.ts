import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { executionLogModels, executionLogs, usagePeriods } from "../../server/db/schema/index.ts";
import type { WorkflowState } from "../../server/executor/types.ts";
import { insertLogModels } from "../../server/services/executions/execution-log-statements.ts";
import { runExecution } from "../../server/services/executions/run-execution.ts";
import { DeploymentStateCache } from "../../server/services/workflows/deployment-state-cache.ts";
import { safeResponseHeaders } from "../../server/services/workflows/safe-response-headers.ts";
import { workflowInputFromBody } from "../../server/services/workflows/workflow-input-from-body.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const state: WorkflowState = {
  blocks: {
    start: { type: "start", name: "Start" },
    respond: { type: "response", name: "Respond", params: { data: "<start>" } },
  },
  edges: [{ source: "start", target: "respond" }],
  loops: {},
  parallels: {},
};

describe("runExecution (the recorder every trigger uses)", () => {
  const clock = new ManualClock(Date.UTC(2026, 6, 1, 0, 0, 0));
  let server: TestServer;
  let tenant: Tenant;
  const workflow = { id: "wf_recording", workspaceId: "" };

  beforeAll(async () => {
    server = await startTestServer({ clock });
    tenant = await createTenant(server);
    workflow.workspaceId = tenant.workspaceId;
  });
  afterAll(() => server.close());

  it("records a run for any trigger with a pre-assigned execution id", async () => {
    const run = await runExecution({
      ctx: server.deps,
      workflow,
      deployment: { id: null, state },
      input: { hello: "world" },
      trigger: "schedule",
      userId: tenant.userId,
      executionId: "exec_preassigned",
    });
    expect(run).toMatchObject({ success: true, executionId: "exec_preassigned", output: { hello: "world" }, level: "info" });
    const row = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.id, run.logId)).get();
    expect(row).toMatchObject({ executionId: "exec_preassigned", trigger: "schedule", status: "success", deploymentId: null });
  });

  it("completes the row as an error when the executor throws, instead of leaving it running", async () => {
    const broken = {
      now(): number {
        throw new Error("clock exploded");
      },
    };
    const run = await runExecution({
      ctx: server.deps,
      workflow,
      deployment: { id: null, state },
      input: {},
      trigger: "api",
      userId: tenant.userId,
      executorDeps: { clock: broken },
    });
    expect(run).toMatchObject({ success: false, status: 500, level: "error" });
    expect(run.error).not.toContain("clock exploded");
    const row = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.id, run.logId)).get();
    expect(row).toMatchObject({ status: "error", level: "error", costTotal: 0.005, error: run.error });
    expect(row?.endedAt).toBe(clock.now());
    const running = await server.deps.db.select().from(executionLogs).where(eq(executionLogs.status, "running"));
    expect(running).toEqual([]);
    const usage = await server.deps.db.select().from(usagePeriods).where(eq(usagePeriods.userId, tenant.userId)).get();
    expect(usage).toMatchObject({ period: "2026-07", executions: 2 });
    expect(usage?.cost).toBeCloseTo(0.01, 9);
  });

  it("writes one model row per model used, once each", async () => {
    const run = await runExecution({ ctx: server.deps, workflow, deployment: { id: null, state }, input: {}, trigger: "manual", userId: tenant.userId });
    const log = { id: run.logId, workspaceId: workflow.workspaceId, startedAt: run.startedAt };
    await server.deps.database.client.batch([insertLogModels(server.deps.db, log, ["gpt-4o", "claude-sonnet-4-5"])], "write");
    await server.deps.database.client.batch([insertLogModels(server.deps.db, log, ["gpt-4o"])], "write");
    const models = await server.deps.db.select().from(executionLogModels).where(eq(executionLogModels.logId, run.logId));
    expect(models.map((m) => m.model).sort()).toEqual(["claude-sonnet-4-5", "gpt-4o"]);
    // Each row carries the run's workspace and start, for model-filtered pages.
    expect(models.every((m) => m.workspaceId === workflow.workspaceId && m.startedAt === run.startedAt)).toBe(true);
  });
});

describe("execute building blocks", () => {
  it("reads the workflow input from a request body", () => {
    expect(workflowInputFromBody(undefined)).toEqual({});
    expect(workflowInputFromBody({ input: { a: 1 } })).toEqual({ a: 1 });
    expect(workflowInputFromBody({ input: null })).toEqual({});
    expect(workflowInputFromBody({ input: 1, id: "x" })).toEqual({ input: 1, id: "x" });
    expect(workflowInputFromBody({ id: "x" })).toEqual({ id: "x" });
    expect(workflowInputFromBody([1, 2])).toEqual([1, 2]);
    expect(workflowInputFromBody("text")).toBe("text");
  });

  it("keeps only the response headers a workflow may set", () => {
    expect(
      safeResponseHeaders({
        "X-Custom": "yes",
        "Cache-Control": "no-store",
        "Set-Cookie": "a=b",
        "Content-Length": "3",
        "Transfer-Encoding": "chunked",
        "Access-Control-Allow-Origin": "*",
        "Content-Type": "text/html",
        "bad name": "x",
        "x-injected": "a\r\nset-cookie: b=c",
        "x-number": 5 as unknown as string,
      }),
    ).toEqual({ "x-custom": "yes", "cache-control": "no-store", "x-number": "5" });
  });

  it("evicts the least recently used deployment states, by count and by size", () => {
    const cache = new DeploymentStateCache(2, 100);
    cache.set("a", "x".repeat(10), state);
    cache.set("b", "x".repeat(10), state);
    expect(cache.get("a")).toBe(state);
    cache.set("c", "x".repeat(10), state);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(state);
    expect(cache.get("c")).toBe(state);
    cache.set("big", "x".repeat(95), state);
    expect(cache.size).toBe(1);
    expect(cache.get("big")).toBe(state);
    cache.set("huge", "x".repeat(101), state);
    expect(cache.get("huge")).toBeUndefined();
  });
});
