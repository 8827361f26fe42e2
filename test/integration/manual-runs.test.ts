import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from "../helpers/server.ts";

// One sync token: once the API has spent it, manual runs must still go through.
const NO_SYNC = JSON.stringify({ payload: { licensee: "test", plan: "free", rateLimits: { sync: { requestsPerMinute: 1, maxBurst: 1 } } } });

describe("POST /api/v1/admin/workflows/{id}/run (trigger manual)", () => {
  let server: TestServer;
  let tenant: Tenant;
  let workflowId: string;
  let draftId: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { LICENSE: NO_SYNC }, clock: new ManualClock(Date.UTC(2026, 4, 10)) });
    tenant = await createTenant(server);
    const headers = { "x-api-key": tenant.apiKey };
    const state = {
      blocks: { start: { type: "start", name: "Start" }, out: { type: "response", name: "Out", params: { data: { got: "<start.x>" }, status: 201 } } },
      edges: [{ source: "start", target: "out" }],
    };
    const create = async () =>
      (await (await server.request("/api/workflows", { method: "POST", headers, json: { workspaceId: tenant.workspaceId, name: "M", state } })).json()).data.id;
    workflowId = await create();
    draftId = await create();
    await server.request(`/api/workflows/${workflowId}/deploy`, { method: "POST", headers });
  });
  afterAll(() => server.close());

  it("runs the deployed version with trigger manual, billed to the owner, without a rate-limit token", async () => {
    const viaApi = () => server.request(`/api/workflows/${workflowId}/execute`, { method: "POST", headers: { "x-api-key": tenant.apiKey } });
    expect((await viaApi()).status).toBe(201);
    expect((await viaApi()).status).toBe(429);

    const res = await server.admin(`/api/v1/admin/workflows/${workflowId}/run`, { method: "POST", json: { input: { x: 5 } } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, output: { got: 5 }, error: null, executionId: expect.stringMatching(/^exec_/) });

    const logs = await (await server.request(`/api/v1/logs?workspaceId=${tenant.workspaceId}&triggers=manual`, { headers: { "x-api-key": tenant.apiKey } })).json();
    expect(logs.data.map((e: { executionId: string }) => e.executionId)).toEqual([body.executionId]);
    const usage = await (await server.request("/api/users/me/usage-limits", { headers: { "x-api-key": tenant.apiKey } })).json();
    expect(usage.usage.currentPeriodCost).toBe(0.01); // the api run and the manual one
    expect(usage.rateLimit.sync.remaining).toBe(0);
  });

  it("runs over tRPC too (admin.runWorkflow, as the admin UI calls it)", async () => {
    const res = await server.request("/trpc/admin.runWorkflow", {
      method: "POST",
      headers: { "x-admin-key": TEST_ADMIN_KEY },
      json: { id: workflowId, input: { x: "ui" } },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()).result.data;
    expect(body).toMatchObject({ success: true, output: { got: "ui" } });
    const detail = await (await server.request(`/api/v1/logs/executions/${body.executionId}`, { headers: { "x-api-key": tenant.apiKey } })).json();
    expect(detail.executionMetadata.trigger).toBe("manual");
  });

  it("needs the admin key, a known workflow and a deployment", async () => {
    expect((await server.request(`/api/v1/admin/workflows/${workflowId}/run`, { method: "POST", json: {} })).status).toBe(401);
    const unknown = await server.admin("/api/v1/admin/workflows/wf_nope/run", { method: "POST", json: {} });
    expect(unknown.status).toBe(404);
    const draft = await server.admin(`/api/v1/admin/workflows/${draftId}/run`, { method: "POST", json: {} });
    expect(draft.status).toBe(400);
    expect(await draft.json()).toMatchObject({ code: "WORKFLOW_NOT_DEPLOYED" });
  });
});
