import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpawnedServer, spawnServer } from "../helpers/spawn-server.ts";

const ADMIN_KEY = "deno-admin-key-0123456789abcdef";
const deno = join(process.cwd(), "node_modules", ".bin", "deno");

describe("the same entry file under Deno", () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnServer(deno, ["run", "-A", "--node-modules-dir=manual", "server/main.ts"], {
      ADMIN_API_KEY: ADMIN_KEY,
      DENO_NO_UPDATE_CHECK: "1",
    });
  });
  afterAll(() => server?.stop());

  it("answers /api/health", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("serves authenticated endpoints: admin creates a user and key, the key reads its usage", async () => {
    const headers = { "x-admin-key": ADMIN_KEY, "content-type": "application/json" };
    const user = await fetch(`${server.url}/api/v1/admin/users`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: "deno@example.com", name: "Deno" }),
    });
    expect(user.status).toBe(201);
    const userId = (await user.json()).data.id;
    const key = await fetch(`${server.url}/api/v1/admin/users/${userId}/api-keys`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "deno" }),
    });
    expect(key.status).toBe(201);
    const apiKey = (await key.json()).data.key;
    const usage = await fetch(`${server.url}/api/users/me/usage-limits`, { headers: { "X-API-Key": apiKey } });
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ success: true, usage: { plan: "free" } });
    const denied = await fetch(`${server.url}/api/users/me/usage-limits`, { headers: { "X-API-Key": "wsk_wrong" } });
    expect(denied.status).toBe(401);
  });
});
