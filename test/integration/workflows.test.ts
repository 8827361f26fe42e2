import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspacePermissions } from "../../server/db/schema/index.ts";
import { createApiKey, createTenant, createUser, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const validState = {
  blocks: {
    start: { type: "start", name: "Start" },
    respond: { type: "response", name: "Respond", params: { data: { greeting: "hello <start.name>" } } },
  },
  edges: [{ source: "start", target: "respond" }],
  loops: {},
  parallels: {},
};

describe("workflows CRUD", () => {
  let server: TestServer;
  let owner: Tenant;
  let other: Tenant;
  let reader: { userId: string; apiKey: string };

  const call = (apiKey: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": apiKey, ...init.headers } });

  async function create(json: Record<string, unknown>, apiKey = owner.apiKey) {
    return call(apiKey, "/api/workflows", { method: "POST", json: { workspaceId: owner.workspaceId, ...json } });
  }

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createTenant(server);
    other = await createTenant(server);
    const readerId = await createUser(server, "Reader");
    reader = { userId: readerId, apiKey: await createApiKey(server, readerId) };
    await server.deps.db.insert(workspacePermissions).values({
      workspaceId: owner.workspaceId,
      userId: readerId,
      permission: "read",
      createdAt: Date.now(),
    });
  });
  afterAll(() => server.close());

  it("creates (201), gets, lists, updates and deletes a workflow", async () => {
    const folderRes = await call(owner.apiKey, "/api/folders", {
      method: "POST",
      json: { workspaceId: owner.workspaceId, name: "Ops" },
    });
    const folderId = (await folderRes.json()).data.id;

    const res = await create({ name: "Greeter", description: "Says hello", folderId, state: validState });
    expect(res.status).toBe(201);
    const { data: created } = await res.json();
    expect(created).toEqual({
      id: expect.stringMatching(/^wf_/),
      workspaceId: owner.workspaceId,
      folderId,
      name: "Greeter",
      description: "Says hello",
      state: validState,
      isDeployed: false,
      deployedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const got = await call(owner.apiKey, `/api/workflows/${created.id}`);
    expect(got.status).toBe(200);
    expect((await got.json()).data).toEqual(created);

    const second = await create({ name: "Loose", state: validState });
    const { data: loose } = await second.json();
    expect(loose).toMatchObject({ folderId: null, description: "" });

    const all = await (await call(owner.apiKey, `/api/workflows?workspaceId=${owner.workspaceId}`)).json();
    expect(all.data.map((w: { id: string }) => w.id)).toEqual([created.id, loose.id]);
    expect(all.data[0]).not.toHaveProperty("state");
    expect(all.data[0]).toMatchObject({ name: "Greeter", isDeployed: false, deployedAt: null });

    const inFolder = await (await call(owner.apiKey, `/api/workflows?workspaceId=${owner.workspaceId}&folderId=${folderId}`)).json();
    expect(inFolder.data.map((w: { id: string }) => w.id)).toEqual([created.id]);

    const newState = {
      ...validState,
      blocks: { ...validState.blocks, respond: { type: "response", name: "Respond", params: { data: "bye" } } },
    };
    const put = await call(owner.apiKey, `/api/workflows/${created.id}`, {
      method: "PUT",
      json: { name: "Farewell", folderId: null, state: newState },
    });
    expect(put.status).toBe(200);
    const { data: updated } = await put.json();
    expect(updated).toMatchObject({ id: created.id, name: "Farewell", description: "Says hello", folderId: null, state: newState });

    const onlyDescription = await call(owner.apiKey, `/api/workflows/${created.id}`, { method: "PUT", json: { description: "New" } });
    expect((await onlyDescription.json()).data).toMatchObject({ name: "Farewell", description: "New", state: newState });

    const del = await call(owner.apiKey, `/api/workflows/${created.id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ data: { id: created.id, deleted: true } });
    expect((await call(owner.apiKey, `/api/workflows/${created.id}`)).status).toBe(404);
    expect((await call(owner.apiKey, `/api/workflows/${created.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("fills omitted edges, loops and parallels with empty values", async () => {
    const res = await create({ name: "Minimal", state: { blocks: { start: { type: "start", name: "Start" } } } });
    expect(res.status).toBe(201);
    expect((await res.json()).data.state).toEqual({ blocks: { start: { type: "start", name: "Start" } }, edges: [], loops: {}, parallels: {} });
  });

  it("refuses a folder of another workspace, naming folderId", async () => {
    const theirs = await call(other.apiKey, "/api/folders", { method: "POST", json: { workspaceId: other.workspaceId, name: "T" } });
    const folderId = (await theirs.json()).data.id;
    const res = await create({ name: "X", folderId, state: validState });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toContain("folderId");
  });

  describe("state validation names the offending block", () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        "unknown block type",
        {
          blocks: { start: { type: "start", name: "Start" }, weird: { type: "teleporter", name: "Weird" } },
          edges: [{ source: "start", target: "weird" }],
        },
        "weird",
      ],
      [
        "edge to a missing block",
        { blocks: { start: { type: "start", name: "Start" } }, edges: [{ source: "start", target: "ghost" }] },
        "ghost",
      ],
      [
        "cycle",
        {
          blocks: {
            start: { type: "start", name: "Start" },
            loopA: { type: "response", name: "First" },
            loopB: { type: "response", name: "Second" },
          },
          edges: [
            { source: "start", target: "loopA" },
            { source: "loopA", target: "loopB" },
            { source: "loopB", target: "loopA" },
          ],
        },
        "loopA|loopB",
      ],
    ];
    for (const [what, state, blockId] of cases) {
      it(`on create and on update: ${what}`, async () => {
        const res = await create({ name: what, state });
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.code).toBe("INVALID_WORKFLOW");
        expect(body.error).toMatch(new RegExp(`\\b(${blockId})\\b`));
        expect(Array.isArray(body.details)).toBe(true);
        expect(body.details.length).toBeGreaterThan(0);

        const ok = await (await create({ name: "fine", state: validState })).json();
        const put = await call(owner.apiKey, `/api/workflows/${ok.data.id}`, { method: "PUT", json: { state } });
        expect(put.status).toBe(400);
        expect((await put.json()).code).toBe("INVALID_WORKFLOW");
        const after = await (await call(owner.apiKey, `/api/workflows/${ok.data.id}`)).json();
        expect(after.data.state).toEqual(validState);
      });
    }

    it("answers 400 naming fields for a malformed body", async () => {
      const res = await create({ name: "", state: { blocks: { s: { name: "no type" } } } });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("INVALID_PARAMETER");
      const parameters = body.details.map((d: { parameter: string }) => d.parameter);
      expect(parameters).toEqual(expect.arrayContaining(["name", "state.blocks.s.type"]));
    });
  });

  describe("workspace isolation", () => {
    let id: string;
    beforeAll(async () => {
      id = (await (await create({ name: "Private", state: validState })).json()).data.id;
    });

    it("answers 404 to another tenant for every by-id operation", async () => {
      const attempts: Array<[string, string, unknown?]> = [
        ["GET", `/api/workflows/${id}`],
        ["PUT", `/api/workflows/${id}`, { name: "Stolen" }],
        ["DELETE", `/api/workflows/${id}`],
        ["POST", `/api/workflows/${id}/deploy`],
        ["GET", `/api/workflows/${id}/status`],
        ["POST", `/api/workflows/${id}/execute`, {}],
      ];
      for (const [method, path, json] of attempts) {
        const res = await call(other.apiKey, path, { method, json });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect((await res.json()).code).toBe("NOT_FOUND");
      }
      const still = await (await call(owner.apiKey, `/api/workflows/${id}`)).json();
      expect(still.data.name).toBe("Private");
    });

    it("answers 403 to another tenant listing or creating in the workspace", async () => {
      expect((await call(other.apiKey, `/api/workflows?workspaceId=${owner.workspaceId}`)).status).toBe(403);
      expect((await create({ name: "Intruder", state: validState }, other.apiKey)).status).toBe(403);
    });

    it("lets a read-only member read but not write", async () => {
      expect((await call(reader.apiKey, `/api/workflows/${id}`)).status).toBe(200);
      expect((await call(reader.apiKey, `/api/workflows?workspaceId=${owner.workspaceId}`)).status).toBe(200);
      expect((await call(reader.apiKey, `/api/workflows/${id}/status`)).status).toBe(200);
      const writes: Array<[string, string, unknown?]> = [
        ["PUT", `/api/workflows/${id}`, { name: "Renamed" }],
        ["DELETE", `/api/workflows/${id}`],
        ["POST", `/api/workflows/${id}/deploy`],
        ["POST", `/api/workflows/${id}/execute`, {}],
      ];
      for (const [method, path, json] of writes) {
        const res = await call(reader.apiKey, path, { method, json });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect((await res.json()).code).toBe("FORBIDDEN");
      }
      expect((await create({ name: "Nope", state: validState }, reader.apiKey)).status).toBe(403);
      const folder = await call(reader.apiKey, "/api/folders", { method: "POST", json: { workspaceId: owner.workspaceId, name: "F" } });
      expect(folder.status).toBe(403);
      const still = await (await call(owner.apiKey, `/api/workflows/${id}`)).json();
      expect(still.data.name).toBe("Private");
    });
  });
});
