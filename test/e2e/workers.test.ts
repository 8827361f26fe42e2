import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpawnedServer, spawnServer } from "../helpers/spawn-server.ts";

const ADMIN_KEY = "workers-admin-key-0123456789abcdef";

describe("WORKERS=2: several server processes on one port and one database", () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnServer(process.execPath, ["--import", "tsx", "server/main.ts"], {
      ADMIN_API_KEY: ADMIN_KEY,
      WORKERS: "2",
    });
  });
  afterAll(() => server?.stop());

  it("serves concurrent writes and reads consistently across processes, then stops all of them", async () => {
    const headers = { "x-admin-key": ADMIN_KEY, "content-type": "application/json" };
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${server.url}/api/v1/admin/users`, {
          method: "POST",
          headers,
          body: JSON.stringify({ email: `w${i}@example.com`, name: `W${i}` }),
        }).then((r) => r.status),
      ),
    );
    expect(created).toEqual(Array(20).fill(201));
    const listed = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${server.url}/api/v1/admin/users?limit=100`, { headers }).then((r) => r.json()),
      ),
    );
    for (const page of listed) expect(page.pagination.total).toBe(20);
    expect(server.output()).toMatch(/running at http:/);
  });
});

describe("start-up with a bad license", () => {
  for (const workers of ["1", "2"]) {
    it(`stops with a clear message and exit code 1 (WORKERS=${workers})`, async () => {
      const started = spawnServer(process.execPath, ["--import", "tsx", "server/main.ts"], {
        ADMIN_API_KEY: ADMIN_KEY,
        WORKERS: workers,
        LICENSE: "{not json",
      });
      const err = (await started.then(
        () => new Error("started"),
        (e: unknown) => e,
      )) as Error;
      expect(err.message).toMatch(/exited with 1/);
      expect(err.message).toMatch(/license is not valid/i);
      expect(err.message).not.toMatch(/\n\s+at /);
    });
  }
});
