import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createUser } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("admin API: users, workspaces, API keys", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe("authentication", () => {
    it("401 without or with a wrong x-admin-key", async () => {
      for (const headers of [{}, { "x-admin-key": "wrong" }] as Record<string, string>[]) {
        const res = await server.request("/api/v1/admin/users", { headers });
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ code: "UNAUTHORIZED", requestId: expect.any(String) });
      }
    });

  });
  describe("users", () => {
    it("creates a user (201) with a lowercased e-mail", async () => {
      const res = await server.admin("/api/v1/admin/users", { method: "POST", json: { email: "Ann@Example.com", name: "Ann" } });
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data).toEqual({ id: expect.stringMatching(/^usr_/), email: "ann@example.com", name: "Ann", createdAt: expect.any(String) });
      expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    });

    it("409 for a duplicate e-mail", async () => {
      await server.admin("/api/v1/admin/users", { method: "POST", json: { email: "dup@example.com", name: "A" } });
      const res = await server.admin("/api/v1/admin/users", { method: "POST", json: { email: "DUP@example.com", name: "B" } });
      expect(res.status).toBe(409);
      expect((await res.json()).code).toBe("CONFLICT");
    });

    it("400 naming each invalid field", async () => {
      const res = await server.admin("/api/v1/admin/users", { method: "POST", json: { email: "nope", name: "" } });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("INVALID_PARAMETER");
      expect(body.details.map((d: { parameter: string }) => d.parameter).sort()).toEqual(["email", "name"]);
    });

    it("400 INVALID_JSON for a malformed body, 415 for another content type", async () => {
      const bad = await server.admin("/api/v1/admin/users", {
        method: "POST",
        body: "{oops",
        headers: { "content-type": "application/json" },
      });
      expect(bad.status).toBe(400);
      expect((await bad.json()).code).toBe("INVALID_JSON");
      const form = await server.admin("/api/v1/admin/users", {
        method: "POST",
        body: "email=a",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
    });

    it("lists users with limit/offset pagination", async () => {
      for (let i = 0; i < 3; i++) await createUser(server, `Page ${i}`);
      const all = await (await server.admin("/api/v1/admin/users?limit=1000")).json();
      const total = all.pagination.total;
      expect(all.data).toHaveLength(total);
      const page = await (await server.admin("/api/v1/admin/users?limit=2&offset=1")).json();
      expect(page.pagination).toEqual({ limit: 2, offset: 1, total });
      expect(page.data.map((u: { id: string }) => u.id)).toEqual(all.data.slice(1, 3).map((u: { id: string }) => u.id));
    });

    it("400 for limit out of range", async () => {
      for (const q of ["limit=0", "limit=1001", "offset=-1", "limit=x"]) {
        const res = await server.admin(`/api/v1/admin/users?${q}`);
        expect(res.status).toBe(400);
        expect((await res.json()).details[0].parameter).toBe(q.split("=")[0]);
      }
    });
  });

  describe("workspaces", () => {
    it("creates a workspace whose owner gets admin permission", async () => {
      const ownerId = await createUser(server);
      const res = await server.admin("/api/v1/admin/workspaces", { method: "POST", json: { name: "Ops", ownerId } });
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data).toMatchObject({ id: expect.stringMatching(/^ws_/), name: "Ops", ownerId });
      const perm = await server.deps.database.client.execute({
        sql: "select permission from workspace_permissions where workspace_id = ? and user_id = ?",
        args: [data.id, ownerId],
      });
      expect(perm.rows[0]?.permission).toBe("admin");
      const list = await (await server.admin("/api/v1/admin/workspaces?limit=1000")).json();
      expect(list.data.map((w: { id: string }) => w.id)).toContain(data.id);
    });

    it("400 for an unknown owner", async () => {
      const res = await server.admin("/api/v1/admin/workspaces", { method: "POST", json: { name: "X", ownerId: "usr_missing" } });
      expect(res.status).toBe(400);
      expect((await res.json()).details).toEqual({ parameter: "ownerId" });
    });
  });

  describe("API keys", () => {
    it("shows the key once and stores only its hash", async () => {
      const userId = await createUser(server);
      const res = await server.admin(`/api/v1/admin/users/${userId}/api-keys`, { method: "POST", json: { name: "ci" } });
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data).toMatchObject({ id: expect.stringMatching(/^key_/), name: "ci", key: expect.stringMatching(/^wsk_/) });
      const rows = await server.deps.database.client.execute({ sql: "select * from api_keys where id = ?", args: [data.id] });
      const stored = JSON.stringify(rows.rows[0]);
      expect(stored).not.toContain(data.key);
      expect(rows.rows[0]?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it("404 for an unknown user", async () => {
      const res = await server.admin("/api/v1/admin/users/usr_nope/api-keys", { method: "POST", json: { name: "x" } });
      expect(res.status).toBe(404);
    });

    it("keys are distinct per issue", async () => {
      const userId = await createUser(server);
      const a = await createApiKey(server, userId);
      const b = await createApiKey(server, userId);
      expect(a).not.toBe(b);
    });
  });
});
