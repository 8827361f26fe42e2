import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("folders", () => {
  let server: TestServer;
  let owner: Tenant;
  let other: Tenant;

  const call = (tenant: Tenant, path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": tenant.apiKey, ...init.headers } });

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createTenant(server);
    other = await createTenant(server);
  });
  afterAll(() => server.close());

  it("creates folders (201) and lists them oldest first", async () => {
    const res = await call(owner, "/api/folders", { method: "POST", json: { workspaceId: owner.workspaceId, name: "Billing" } });
    expect(res.status).toBe(201);
    const { data: parent } = await res.json();
    expect(parent).toEqual({
      id: expect.stringMatching(/^fld_/),
      workspaceId: owner.workspaceId,
      parentId: null,
      name: "Billing",
      createdAt: expect.any(String),
    });
    expect(Date.parse(parent.createdAt)).not.toBeNaN();

    const childRes = await call(owner, "/api/folders", {
      method: "POST",
      json: { workspaceId: owner.workspaceId, name: "  Invoices ", parentId: parent.id },
    });
    expect(childRes.status).toBe(201);
    const { data: child } = await childRes.json();
    expect(child).toMatchObject({ parentId: parent.id, name: "Invoices" });

    const list = await call(owner, `/api/folders?workspaceId=${owner.workspaceId}`);
    expect(list.status).toBe(200);
    const { data } = await list.json();
    expect(data.map((f: { id: string }) => f.id)).toEqual([parent.id, child.id]);
  });

  it("refuses a parent that is not a folder of the same workspace, naming parentId", async () => {
    const foreign = await call(other, "/api/folders", { method: "POST", json: { workspaceId: other.workspaceId, name: "Theirs" } });
    const { data: theirs } = await foreign.json();
    for (const parentId of [theirs.id, "fld_missing"]) {
      const res = await call(owner, "/api/folders", { method: "POST", json: { workspaceId: owner.workspaceId, name: "X", parentId } });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("INVALID_PARAMETER");
      expect(body.error).toContain("parentId");
    }
  });

  it("answers 403 for a workspace the caller has no access to", async () => {
    const create = await call(other, "/api/folders", { method: "POST", json: { workspaceId: owner.workspaceId, name: "Intruder" } });
    expect(create.status).toBe(403);
    expect((await create.json()).code).toBe("FORBIDDEN");
    const list = await call(other, `/api/folders?workspaceId=${owner.workspaceId}`);
    expect(list.status).toBe(403);
  });

  it("answers 400 naming the invalid fields", async () => {
    const res = await call(owner, "/api/folders", { method: "POST", json: { workspaceId: owner.workspaceId, name: "" } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("INVALID_PARAMETER");
    expect(body.error).toContain("name");

    const missing = await call(owner, "/api/folders", { method: "POST", json: { name: "No workspace" } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toContain("workspaceId");

    const list = await call(owner, "/api/folders");
    expect(list.status).toBe(400);
    expect((await list.json()).error).toContain("workspaceId");
  });

  it("answers 401 without an API key", async () => {
    const res = await server.request(`/api/folders?workspaceId=${owner.workspaceId}`);
    expect(res.status).toBe(401);
  });
});
