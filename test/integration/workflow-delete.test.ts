import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("deleting a workflow", () => {
  let server: TestServer;
  let tenant: Tenant;
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  it("keeps its past runs readable: logs, and execution details with the snapshot they ran", async () => {
    const headers = { "x-api-key": tenant.apiKey };
    const state = {
      blocks: {
        start: { type: "start", name: "Start" },
        respond: { type: "response", name: "Respond", params: { data: { hi: "<start.name>" } } },
      },
      edges: [{ source: "start", target: "respond" }],
    };
    const created = await server.request("/api/workflows", {
      method: "POST",
      headers,
      json: { workspaceId: tenant.workspaceId, name: "Short-lived", state },
    });
    const { data: workflow } = await created.json();
    await server.request(`/api/workflows/${workflow.id}/deploy`, { method: "POST", headers });
    const run = await (await server.request(`/api/workflows/${workflow.id}/execute`, { method: "POST", headers, json: { name: "Ada" } })).json();
    expect(run.success).toBe(true);

    const deleted = await server.request(`/api/workflows/${workflow.id}`, { method: "DELETE", headers });
    expect(deleted.status).toBe(200);
    expect((await server.request(`/api/workflows/${workflow.id}`, { headers })).status).toBe(404);

    const details = await server.request(`/api/v1/logs/executions/${run.executionId}`, { headers });
    expect(details.status).toBe(200);
    const body = await details.json();
    expect(body.workflowId).toBe(workflow.id);
    expect(Object.keys(body.workflowState.blocks).sort()).toEqual(["respond", "start"]);
    expect(body.workflowState.edges).toEqual([{ source: "start", target: "respond" }]);
    const list = await (await server.request(`/api/v1/logs?workspaceId=${tenant.workspaceId}&workflowIds=${workflow.id}`, { headers })).json();
    expect(list.data.map((e: { executionId: string }) => e.executionId)).toEqual([run.executionId]);
  });
});
