import { type Client, createClient } from "@libsql/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.ts";
import { type Receiver, startReceiver } from "../helpers/receiver.ts";
import { type SpawnedServer, spawnServer } from "../helpers/spawn-server.ts";

const ADMIN_KEY = "async-workers-admin-key-0123456789";
const RUNS = 200;
const unlimited = { requestsPerMinute: 1_000_000, maxBurst: 1_000_000 };
const LICENSE = JSON.stringify({ payload: { licensee: "test", plan: "enterprise", rateLimits: { async: unlimited } } });

/**
 * ROLE=api accepts runs, two ROLE=worker processes run them from the shared database file. One
 * worker is killed while it holds runs: after its leases expire the other finishes them, and every
 * run is recorded exactly once.
 */
describe("queued runs across processes: ROLE=api plus two ROLE=worker, one killed mid-run", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "wf-async-workers-"));
  const env = { DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, LICENSE, ALLOW_PRIVATE_NETWORK: "true", JOB_LEASE_MS: "2000", WORKER_CONCURRENCY: "16" };
  const start = (role: string) => spawnServer(process.execPath, ["--import", "tsx", "server/main.ts"], { ...env, ROLE: role });
  let api: SpawnedServer;
  let workers: SpawnedServer[] = [];
  let external: Receiver;
  let db: Client;
  let hits = 0;
  let released = false;
  const held: Array<() => void> = [];

  beforeAll(async () => {
    external = await startReceiver();
    external.reply((_req, res) => {
      hits++;
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"ok":true}');
      };
      // Until a worker has been killed, calls wait: the victim dies with runs in the middle.
      if (released) setTimeout(answer, 5);
      else held.push(answer);
    });
    api = await start("api");
    workers = [await start("worker"), await start("worker")];
    db = createClient({ url: `file:${join(dataDir, "app.db")}` });
  });
  afterAll(async () => {
    db?.close();
    for (const p of [api, ...workers]) if (p?.child.exitCode === null) p.child.kill("SIGKILL");
    await external?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a worker answers health only; the api process runs no jobs", async () => {
    expect((await fetch(`${workers[0].url}/api/health`)).status).toBe(200);
    expect((await fetch(`${workers[0].url}/api/v1/logs?workspaceId=x`)).status).toBe(404);
  });

  it(`runs each of ${RUNS} queued runs exactly once although a worker dies`, async () => {
    const admin = { "x-admin-key": ADMIN_KEY, "content-type": "application/json" };
    const post = async (path: string, body: unknown, headers: Record<string, string>) =>
      (await fetch(`${api.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })).json();
    const user = await post("/api/v1/admin/users", { email: "a@example.com", name: "A" }, admin);
    const ws = await post("/api/v1/admin/workspaces", { name: "W", ownerId: user.data.id }, admin);
    const key = (await post(`/api/v1/admin/users/${user.data.id}/api-keys`, { name: "k" }, admin)).data.key;
    const auth = { "x-api-key": key };
    const state = {
      blocks: {
        start: { type: "start", name: "Start" },
        call: { type: "api", name: "Call", params: { url: `${external.url}/run/<start.i>`, retries: 0 } },
        out: { type: "response", name: "Out", params: { data: { i: "<start.i>", ok: "<call.data.ok>" } } },
      },
      edges: [
        { source: "start", target: "call" },
        { source: "call", target: "out" },
      ],
    };
    const wf = await post("/api/workflows", { workspaceId: ws.data.id, name: "F", state }, auth);
    await post(`/api/workflows/${wf.data.id}/deploy`, {}, auth);

    const queued = await Promise.all(
      Array.from({ length: RUNS }, (_, i) => post(`/api/workflows/${wf.data.id}/execute`, { input: { i }, async: true }, auth)),
    );
    expect(queued.every((q) => q.success === true && q.async === true)).toBe(true);

    // Kill a worker while it holds runs (their calls are held above), then let the calls through.
    const victim = await eventually(async () => {
      for (const w of workers) {
        const rs = await db.execute({ sql: "SELECT count(*) FROM jobs WHERE status = 'processing' AND lease_owner LIKE ?", args: [`worker_${w.child.pid}_%`] });
        if (Number(rs.rows[0][0]) > 0) return w;
      }
      return undefined;
    }, "a worker to hold runs");
    victim.child.kill("SIGKILL");
    await new Promise((resolve) => victim.child.once("exit", resolve));
    released = true;
    for (const answer of held.splice(0)) answer();

    await eventually(
      async () => {
        const rs = await db.execute("SELECT count(*) FROM jobs WHERE status = 'completed'");
        return Number(rs.rows[0][0]) === RUNS ? true : undefined;
      },
      `all ${RUNS} jobs to complete`,
      60_000,
    );
    const logs = await db.execute("SELECT execution_id, status, final_output FROM execution_logs");
    expect(logs.rows.length).toBe(RUNS);
    expect(new Set(logs.rows.map((r) => r[0])).size).toBe(RUNS);
    expect(logs.rows.every((r) => r[1] === "success")).toBe(true);
    expect(logs.rows.map((r) => JSON.parse(r[2] as string).i).sort((a, b) => a - b)).toEqual(Array.from({ length: RUNS }, (_, i) => i));
    expect(new Set(queued.map((q) => q.executionId))).toEqual(new Set(logs.rows.map((r) => r[0])));

    // The killed worker's runs were taken again (at-least-once side effects, one record each).
    const retried = await db.execute("SELECT count(*) FROM jobs WHERE attempts > 1");
    expect(Number(retried.rows[0][0])).toBeGreaterThan(0);
    expect(hits).toBeGreaterThanOrEqual(RUNS);
    const owners = await db.execute("SELECT DISTINCT lease_owner FROM jobs");
    for (const row of owners.rows) expect(String(row[0])).not.toContain(`worker_${api.child.pid}_`);
  }, 120_000);
});
