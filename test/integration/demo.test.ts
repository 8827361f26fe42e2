import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../scripts/demo-seed.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("npm run demo seed", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("gives a key and a deployed workflow that the printed curl line runs, and whose log can be read", async () => {
    const seed = await seedDemo(server.deps);
    const run = await server.request(`/api/workflows/${seed.workflowId}/execute`, {
      method: "POST",
      headers: { "x-api-key": seed.apiKey },
      json: { name: "Ada" },
    });
    expect(run.status).toBe(200);
    const body = await run.json();
    expect(body).toMatchObject({ success: true, output: { message: "Hello, Ada!", received: { name: "Ada" } } });

    const logs = await server.request(`/api/v1/logs?workspaceId=${seed.workspaceId}&includeFinalOutput=true`, {
      headers: { "x-api-key": seed.apiKey },
    });
    expect(logs.status).toBe(200);
    const list = await logs.json();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ executionId: body.executionId, level: "info", trigger: "api" });

    const status = await server.request(`/api/workflows/${seed.apiWorkflowId}/status`, { headers: { "x-api-key": seed.apiKey } });
    expect(await status.json()).toMatchObject({ isDeployed: true, needsRedeployment: false });
  });
});
