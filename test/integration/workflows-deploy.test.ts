import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const stateSaying = (text: string) => ({
  blocks: {
    start: { type: "start", name: "Start" },
    respond: { type: "response", name: "Respond", params: { data: { says: text } } },
  },
  edges: [{ source: "start", target: "respond" }],
  loops: {},
  parallels: {},
});

describe("deploy and deployment status", () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 9, 0, 0));
  let server: TestServer;
  let owner: Tenant;

  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": owner.apiKey, ...init.headers } });
  const status = async (id: string) => {
    const res = await call(`/api/workflows/${id}/status`);
    expect(res.status).toBe(200);
    return res.json();
  };
  const execute = async (id: string) => call(`/api/workflows/${id}/execute`, { method: "POST", json: {} });

  beforeAll(async () => {
    server = await startTestServer({ clock });
    owner = await createTenant(server);
  });
  afterAll(() => server.close());

  it("deploys snapshots, reports when a redeploy is needed, and runs the deployed snapshot", async () => {
    const created = await (await call("/api/workflows", {
      method: "POST",
      json: { workspaceId: owner.workspaceId, name: "Versioned", state: stateSaying("v1") },
    })).json();
    const id = created.data.id;

    expect(await status(id)).toEqual({ isDeployed: false, deployedAt: null, needsRedeployment: false });
    const undeployed = await execute(id);
    expect(undeployed.status).toBe(400);
    const undeployedBody = await undeployed.json();
    expect(undeployedBody.code).toBe("WORKFLOW_NOT_DEPLOYED");
    expect(undeployedBody.error).toContain("not deployed");

    clock.advance(60_000);
    const firstDeploy = await call(`/api/workflows/${id}/deploy`, { method: "POST" });
    expect(firstDeploy.status).toBe(200);
    const first = (await firstDeploy.json()).data;
    expect(first).toEqual({
      id: expect.stringMatching(/^dep_/),
      workflowId: id,
      version: 1,
      deployedAt: new Date(clock.now()).toISOString(),
    });
    expect(await status(id)).toEqual({ isDeployed: true, deployedAt: first.deployedAt, needsRedeployment: false });
    const got = (await (await call(`/api/workflows/${id}`)).json()).data;
    expect(got).toMatchObject({ isDeployed: true, deployedAt: first.deployedAt });
    const listed = (await (await call(`/api/workflows?workspaceId=${owner.workspaceId}`)).json()).data;
    expect(listed[0]).toMatchObject({ id, isDeployed: true, deployedAt: first.deployedAt });

    // Saving the same state, or only renaming, changes nothing that needs a redeploy.
    await call(`/api/workflows/${id}`, { method: "PUT", json: { state: stateSaying("v1"), name: "Renamed" } });
    expect((await status(id)).needsRedeployment).toBe(false);

    await call(`/api/workflows/${id}`, { method: "PUT", json: { state: stateSaying("v2") } });
    expect(await status(id)).toEqual({ isDeployed: true, deployedAt: first.deployedAt, needsRedeployment: true });

    const ranDeployed = await execute(id);
    expect(ranDeployed.status).toBe(200);
    expect((await ranDeployed.json()).output).toEqual({ says: "v1" });

    clock.advance(60_000);
    const second = (await (await call(`/api/workflows/${id}/deploy`, { method: "POST" })).json()).data;
    expect(second).toMatchObject({ workflowId: id, version: 2, deployedAt: new Date(clock.now()).toISOString() });
    expect(second.id).not.toBe(first.id);
    expect(await status(id)).toEqual({ isDeployed: true, deployedAt: second.deployedAt, needsRedeployment: false });
    expect((await (await execute(id)).json()).output).toEqual({ says: "v2" });

    const third = (await (await call(`/api/workflows/${id}/deploy`, { method: "POST" })).json()).data;
    expect(third.version).toBe(3);
  });

  it("answers 404 for deploy and status of an unknown workflow", async () => {
    expect((await call("/api/workflows/wf_nope/deploy", { method: "POST" })).status).toBe(404);
    expect((await call("/api/workflows/wf_nope/status")).status).toBe(404);
    expect((await execute("wf_nope")).status).toBe(404);
  });
});
