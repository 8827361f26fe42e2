import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Database, migrateDatabase, openDatabase } from "../../server/db/client.ts";
import { enqueueJobs } from "../../server/jobs/enqueue-job.ts";

type Worker = { name: string; child: ChildProcess; out: string; output: () => string };

const JOBS = 200;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function setup(): Promise<{ dir: string; url: string; database: Database }> {
  const dir = mkdtempSync(join(tmpdir(), "wf-jobs-e2e-"));
  const url = `file:${join(dir, "app.db")}`;
  const database = await openDatabase(url);
  await migrateDatabase(database);
  await database.client.execute("CREATE TABLE job_runs (job_id TEXT NOT NULL, pid INTEGER NOT NULL, attempt INTEGER NOT NULL)");
  cleanups.push(() => {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, url, database };
}

/** Starts test/e2e/fixtures/jobs-worker.ts by its binary (so that signals reach it) and waits for "ready". */
async function startWorker(name: string, dir: string, url: string, env: Record<string, string>): Promise<Worker> {
  const out = join(dir, `${name}.out`);
  const child = spawn(process.execPath, ["--import", "tsx", "test/e2e/fixtures/jobs-worker.ts"], {
    env: { ...process.env, JOBS_DB_URL: url, JOBS_WORKER_ID: name, JOBS_OUT: out, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d.toString()));
  child.stderr?.on("data", (d) => (output += d.toString()));
  cleanups.push(() => stop(child, "SIGKILL"));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes("ready\n")) resolve();
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => reject(new Error(`worker ${name} exited with ${code}:\n${output}`)));
  });
  return { name, child, out, output: () => output };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  await exited;
}

/** Re-checks `condition` until it holds; the deadline only turns a hang into a readable failure. */
async function until(what: string, condition: () => Promise<boolean>, workers: Worker[]): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}\n${workers.map((w) => `${w.name}: ${w.output()}`).join("\n")}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const count = async (database: Database, sql: string, args: Array<string | number> = []) =>
  Number((await database.client.execute({ sql, args })).rows[0][0]);

/** Outcome lines ("completed <id>") each process wrote. */
const outcomes = (worker: Worker) => (existsSync(worker.out) ? readFileSync(worker.out, "utf8").trim().split("\n").filter(Boolean) : []);

const enqueue = (database: Database) =>
  enqueueJobs(
    database,
    Array.from({ length: JOBS }, (_, i) => ({ kind: "e2e", payload: { i } })),
    Date.now(),
  );

describe("job queue across processes on one database file", () => {
  it("two worker processes share 200 jobs: each job is claimed, run and completed exactly once", async () => {
    const { dir, url, database } = await setup();
    const workers = await Promise.all(["A", "B"].map((name) => startWorker(name, dir, url, { JOBS_MODE: "work" })));
    const ids = await enqueue(database);
    await until("all jobs completed", async () => (await count(database, "SELECT count(*) FROM jobs WHERE status = 'completed'")) === JOBS, workers);
    await Promise.all(workers.map((w) => stop(w.child, "SIGTERM")));

    const jobs = await database.client.execute("SELECT id, status, attempts, lease_owner, result FROM jobs");
    expect(jobs.rows).toHaveLength(JOBS);
    expect(jobs.rows.every((r) => r.status === "completed" && r.attempts === 1)).toBe(true);

    const runs = await database.client.execute("SELECT job_id, pid FROM job_runs");
    expect(runs.rows).toHaveLength(JOBS);
    expect(new Set(runs.rows.map((r) => r.job_id)).size).toBe(JOBS);
    const pids = new Set(runs.rows.map((r) => r.pid));
    expect(pids).toEqual(new Set(workers.map((w) => w.child.pid)));
    // The stored result names the process whose run completed the job.
    const runPid = new Map(runs.rows.map((r) => [r.job_id, r.pid]));
    expect(jobs.rows.every((r) => JSON.parse(String(r.result)).pid === runPid.get(r.id))).toBe(true);

    const lines = workers.flatMap(outcomes);
    expect(lines).toHaveLength(JOBS);
    expect(lines.every((l) => l.startsWith("completed "))).toBe(true);
    expect(new Set(lines.map((l) => l.slice("completed ".length)))).toEqual(new Set(ids));
  });

  it("a process killed while holding claimed jobs: with short leases the other process completes every job once", async () => {
    const { dir, url, database } = await setup();
    const ids = await enqueue(database);
    const lease = { JOBS_LEASE_MS: "1000" };
    // A claims a batch of 8 and holds it, renewing its leases while it lives.
    const a = await startWorker("A", dir, url, { JOBS_MODE: "hold", ...lease });
    const heldByA = "SELECT count(*) FROM jobs WHERE status = 'processing' AND lease_owner = 'A'";
    await until("A to hold 8 jobs", async () => (await count(database, heldByA)) === 8, [a]);
    const held = (await database.client.execute("SELECT id FROM jobs WHERE lease_owner = 'A'")).rows.map((r) => String(r.id));
    const firstLease = await count(database, "SELECT max(lease_expires_at) FROM jobs WHERE lease_owner = 'A'");
    const b = await startWorker("B", dir, url, { JOBS_MODE: "work", ...lease });
    const completed = "SELECT count(*) FROM jobs WHERE status = 'completed'";
    await until("B to complete the other jobs", async () => (await count(database, completed)) >= JOBS - 8, [a, b]);
    // While A lives it renews its leases past the first ones, and B, polling all along, leaves A's jobs alone.
    const inHeld = `id IN (${held.map(() => "?").join(", ")})`;
    const renewedOrLost = `SELECT count(*) FROM jobs WHERE ${inHeld} AND (lease_owner <> 'A' OR lease_expires_at > ?)`;
    await until("A to renew its leases", async () => (await count(database, renewedOrLost, [...held, firstLease])) === 8, [a, b]);
    expect(await count(database, `${heldByA} AND attempts = 1 AND ${inHeld}`, held)).toBe(8);
    expect(await count(database, completed)).toBe(JOBS - 8);

    await stop(a.child, "SIGKILL");
    await until("all jobs completed", async () => (await count(database, "SELECT count(*) FROM jobs WHERE status = 'completed'")) === JOBS, [a, b]);
    await stop(b.child, "SIGTERM");

    const jobs = await database.client.execute("SELECT id, attempts, lost_count, lease_owner FROM jobs");
    for (const row of jobs.rows) {
      const wasHeld = held.includes(String(row.id));
      expect({ attempts: row.attempts, lost: row.lost_count, owner: row.lease_owner }).toEqual({
        attempts: wasHeld ? 2 : 1,
        lost: wasHeld ? 1 : 0,
        owner: "B",
      });
    }
    // A ran its 8 jobs but recorded no outcome; B ran and completed all 200, each once.
    expect(outcomes(a)).toEqual([]);
    const lines = outcomes(b);
    expect(lines).toHaveLength(JOBS);
    expect(new Set(lines)).toEqual(new Set(ids.map((id) => `completed ${id}`)));
    const runs = await database.client.execute("SELECT pid, count(*) AS n, count(DISTINCT job_id) AS jobs FROM job_runs GROUP BY pid ORDER BY n");
    expect(runs.rows.map((r) => ({ ...r }))).toEqual([
      { pid: a.child.pid, n: 8, jobs: 8 },
      { pid: b.child.pid, n: JOBS, jobs: JOBS },
    ]);
  });
});
