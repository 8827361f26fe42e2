import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveAdminKey } from "../../server/bootstrap.ts";
import { loadConfig } from "../../server/config.ts";
import { startServer } from "../../server/start.ts";

const base = { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent" };

describe("admin key bootstrap on first start", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), "wf-boot-"));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("generates a key into the data dir (0600) on an empty database, and reuses it on the next start", async () => {
    const dataDir = tempDir();
    const first = await startServer({ env: { ...base, DATA_DIR: dataDir } });
    const file = join(dataDir, "admin-api-key");
    const key = readFileSync(file, "utf8").trim();
    expect(key).toMatch(/^adm_/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const ok = await fetch(`${first.url}/api/v1/admin/users`, { headers: { "x-admin-key": key } });
    expect(ok.status).toBe(200);
    await first.close();

    const config = loadConfig({ ...base, DATA_DIR: dataDir });
    const second = await startServer({ env: { ...base, DATA_DIR: dataDir } });
    expect((await resolveAdminKey(config, second.deps.database)).origin).toBe("file");
    const again = await fetch(`${second.url}/api/v1/admin/users`, { headers: { "x-admin-key": key } });
    expect(again.status).toBe(200);
    await second.close();
  });

  it("answers 503 NOT_CONFIGURED when the database has users but no admin key is set or stored", async () => {
    const dbDir = tempDir();
    const databaseUrl = `file:${join(dbDir, "app.db")}`;
    const seeded = await startServer({ env: { ...base, DATA_DIR: dbDir, DATABASE_URL: databaseUrl, ADMIN_API_KEY: "seed-admin-key-0123456789" } });
    const created = await fetch(`${seeded.url}/api/v1/admin/users`, {
      method: "POST",
      headers: { "x-admin-key": "seed-admin-key-0123456789", "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com", name: "A" }),
    });
    expect(created.status).toBe(201);
    await seeded.close();

    const server = await startServer({ env: { ...base, DATA_DIR: tempDir(), DATABASE_URL: databaseUrl, ADMIN_API_KEY: "" } });
    const res = await fetch(`${server.url}/api/v1/admin/users`, { headers: { "x-admin-key": "anything" } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: "NOT_CONFIGURED", requestId: expect.any(String) });
    await server.close();
  });

  it("runs on an in-memory database (DATABASE_URL=:memory:)", async () => {
    const server = await startServer({ env: { ...base, DATA_DIR: tempDir(), DATABASE_URL: ":memory:", ADMIN_API_KEY: "memory-admin-key-0123456789" } });
    const headers = { "x-admin-key": "memory-admin-key-0123456789", "content-type": "application/json" };
    const created = await fetch(`${server.url}/api/v1/admin/users`, { method: "POST", headers, body: JSON.stringify({ email: "m@example.com", name: "M" }) });
    expect(created.status).toBe(201);
    const listed = await (await fetch(`${server.url}/api/v1/admin/users`, { headers })).json();
    expect(listed.pagination.total).toBe(1);
    await server.close();
  });

  it("refuses to start with an invalid configuration, naming the variable", () => {
    expect(() => loadConfig({ PORT: "abc" })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: "postgres://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ADMIN_API_KEY: "short" })).toThrow(/ADMIN_API_KEY/);
    expect(loadConfig({}).databaseUrl).toBe("file:./data/app.db");
    expect(loadConfig({ DATABASE_URL: "libsql://db.example.com", DATABASE_AUTH_TOKEN: "t" }).databaseAuthToken).toBe("t");
  });
});
