// Benchmark of GET /api/v1/logs over 1,000,000 execution_logs rows.
// (a) in-process: the Hono app's fetch for 100-row pages (and the list service alone), sequentially;
// (b) over HTTP: the real server in its own process, `concurrency` requests in flight for `seconds`.
// Usage: npm run bench:logs [-- --rows 1000000 --iterations 2000 --seconds 10 --concurrency 32 --workers 2 --client wrk]
//        [--data-dir DIR]  keep the seeded database in DIR and reuse it on the next run (seeding takes minutes)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../../server/app.ts";
import type { Db } from "../../server/db/client.ts";
import { userContext } from "../../server/context.ts";
import { encodeCursor } from "../../server/services/logs/cursor.ts";
import { listLogs } from "../../server/services/logs/list-logs.ts";
import { startServer } from "../../server/start.ts";
import { listLogs as listLogsContract } from "../../contract/logs/list-logs.ts";
import { insertFolder, insertLogs, insertWorkflow, type LogRowSpec } from "../../test/helpers/log-rows.ts";
import { spawnServer } from "../../test/helpers/spawn-server.ts";
import { hasWrk, percentiles, runLoad, runWrk } from "./load.ts";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    iterations: { type: "string", default: "2000" },
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "32" },
    "data-dir": { type: "string" },
    workers: { type: "string", default: "2" },
    // "wrk" (when installed) or "node".
    client: { type: "string", default: hasWrk() ? "wrk" : "node" },
  },
});
const ROWS = Number(values.rows);
const ITERATIONS = Number(values.iterations);
const ADMIN = "bench-admin-key-0123456789abcdef";
const unlimited = { requestsPerMinute: 100_000_000, maxBurst: 100_000_000 };
const LICENSE = JSON.stringify({ payload: { licensee: "bench", plan: "enterprise", rateLimits: { api: unlimited } } });
const TRIGGERS = ["api", "webhook", "schedule", "manual", "chat"] as const;
const MODELS = ["gpt-4o", "gpt-4o-mini", "claude-sonnet", "gemini-pro"];
const T_END = Date.UTC(2026, 0, 15);
const SPAN_MS = 30 * 24 * 3600 * 1000;

const keepDir = values["data-dir"];
const dataDir = keepDir ?? mkdtempSync(join(tmpdir(), "bench-logs-"));
if (keepDir) mkdirSync(keepDir, { recursive: true });
const seedFile = join(dataDir, "bench-seed.json");
const env = { PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN, LICENSE, LOG_LEVEL: "error" };
const out = (line: string) => process.stdout.write(`${line}\n`);

type Seeded = { userId: string; workspaceId: string; workflowIds: string[]; folderB: string; rows: number };

// A tiny deterministic generator keeps runs comparable.
let state = 42;
const rand = () => {
  state = (state * 1103515245 + 12345) & 0x7fffffff;
  return state / 0x7fffffff;
};

async function call(url: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const send = () =>
    fetch(`${url}${path}`, {
      method: init.method ?? "GET",
      headers: { "content-type": "application/json", ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  // After minutes of seeding, the kept-alive socket may have been closed by the server: retry once.
  const res = await send().catch(send);
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Creates the tenant and ROWS log rows: 8 workflows (5 in folders), 10% errors, 30% with a model. */
async function seed(url: string, db: Db): Promise<Seeded> {
  const admin = { "x-admin-key": ADMIN };
  const user = await call(url, "/api/v1/admin/users", { method: "POST", headers: admin, body: { email: "bench@example.com", name: "Bench" } });
  const ws = await call(url, "/api/v1/admin/workspaces", { method: "POST", headers: admin, body: { name: "Bench", ownerId: user.data.id } });
  const workspaceId: string = ws.data.id;
  const folderA = await insertFolder(db, workspaceId, "A");
  const folderB = await insertFolder(db, workspaceId, "B");
  const workflowIds: string[] = [];
  for (let i = 0; i < 8; i++) {
    workflowIds.push(await insertWorkflow(db, { workspaceId, folderId: i < 3 ? folderA : i < 5 ? folderB : null, name: `Workflow ${i}` }));
  }
  // Timestamps spread over 30 days, ~1 in 20 sharing a millisecond with its neighbour.
  const started = performance.now();
  const BATCH = 30_000;
  let previous = T_END - SPAN_MS;
  for (let done = 0; done < ROWS; done += BATCH) {
    const specs: LogRowSpec[] = [];
    for (let i = done; i < Math.min(ROWS, done + BATCH); i++) {
      const startedAt = rand() < 0.05 ? previous : T_END - SPAN_MS + Math.floor((i / ROWS) * SPAN_MS);
      previous = startedAt;
      const error = rand() < 0.1;
      const withModel = rand() < 0.3;
      specs.push({
        workspaceId,
        workflowId: workflowIds[Math.floor(rand() * workflowIds.length)],
        status: error ? "error" : "success",
        trigger: TRIGGERS[Math.floor(rand() * TRIGGERS.length)],
        startedAt,
        totalDurationMs: Math.floor(rand() * 20_000),
        costTotal: withModel ? 0.005 + Math.round(rand() * 1e6) / 1e8 : 0.005,
        traceSpans: "[]",
        finalOutput: '{"ok":true}',
        models: withModel ? [MODELS[Math.floor(rand() * MODELS.length)]] : [],
      });
    }
    await insertLogs(db, specs);
  }
  out(`Seeded ${ROWS.toLocaleString("en-US")} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const seeded = { userId: user.data.id as string, workspaceId, workflowIds, folderB, rows: ROWS };
  writeFileSync(seedFile, JSON.stringify(seeded));
  return seeded;
}

const running = await startServer({ env });
let spawned: Awaited<ReturnType<typeof spawnServer>> | undefined;
try {
  const admin = { "x-admin-key": ADMIN };
  const seeded: Seeded = existsSync(seedFile)
    ? (JSON.parse(readFileSync(seedFile, "utf8")) as Seeded)
    : await seed(running.url, running.deps.db);
  const { workspaceId, workflowIds, folderB } = seeded;
  const key = await call(running.url, `/api/v1/admin/users/${seeded.userId}/api-keys`, { method: "POST", headers: admin, body: { name: "bench" } });
  const apiKey: string = key.data.key;
  out(`${seeded.rows.toLocaleString("en-US")} execution_logs rows in ${dataDir}`);

  // Deep positions: cursors somewhere in the middle of the data, in both orders.
  const middle = T_END - SPAN_MS / 2;
  const deepDesc = Array.from({ length: 16 }, (_, i) => encodeCursor("desc", { startedAt: middle - i * 3_600_000, id: "log_z" }));
  const deepAsc = Array.from({ length: 16 }, (_, i) => encodeCursor("asc", { startedAt: middle - i * 3_600_000, id: "" }));
  const base = `/api/v1/logs?workspaceId=${workspaceId}&limit=100`;
  const scenarios: { name: string; path: (i: number) => string }[] = [
    { name: "first page (desc)", path: () => base },
    { name: "deep cursor page (desc)", path: (i) => `${base}&cursor=${deepDesc[i % deepDesc.length]}` },
    { name: "deep cursor page (asc)", path: (i) => `${base}&order=asc&cursor=${deepAsc[i % deepAsc.length]}` },
    { name: "level=error&triggers=api,webhook", path: () => `${base}&level=error&triggers=api,webhook` },
    { name: "workflowIds (2) + minDurationMs", path: () => `${base}&workflowIds=${workflowIds[1]},${workflowIds[6]}&minDurationMs=5000` },
    { name: "folderIds + date range", path: () => `${base}&folderIds=${folderB}&startDate=2025-12-20T00:00:00Z&endDate=2026-01-01T00:00:00Z` },
    { name: "model=claude-sonnet", path: () => `${base}&model=claude-sonnet` },
    { name: "details=full + traceSpans + finalOutput", path: () => `${base}&details=full&includeTraceSpans=true&includeFinalOutput=true` },
  ];

  // (a) in process: the whole HTTP stack without sockets (auth, rate limit, permission, query, limits, JSON).
  const app = createApp(running.deps);
  const headers = { "x-api-key": apiKey };
  out("");
  out(`(a) in-process, app.fetch, ${ITERATIONS} sequential requests per row, 100-row pages`);
  out("");
  out("| query | req/s | p50 ms | p99 ms | rows |");
  out("|---|---:|---:|---:|---:|");
  for (const scenario of scenarios) {
    let rows = 0;
    const run = async (i: number) => {
      const res = await app.fetch(new Request(`http://localhost${scenario.path(i)}`, { headers }));
      const body = (await res.json()) as { data: unknown[] };
      if (res.status !== 200) throw new Error(`${scenario.name}: ${res.status} ${JSON.stringify(body)}`);
      rows = body.data.length;
    };
    for (let i = 0; i < 100; i++) await run(i);
    const samples: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < ITERATIONS; i++) {
      const s = performance.now();
      await run(i);
      samples.push(performance.now() - s);
    }
    const rps = ITERATIONS / ((performance.now() - t0) / 1000);
    const p = percentiles(samples);
    out(`| ${scenario.name} | ${Math.round(rps)} | ${p.p50.toFixed(2)} | ${p.p99.toFixed(2)} | ${rows} |`);
  }

  // The list service alone (permission check + query + limits), for the cost of the layers above it.
  const ctx = userContext(running.deps, seeded.userId);
  const serviceInput = listLogsContract.input.parse({ workspaceId, limit: 100 });
  const samples: number[] = [];
  for (let i = 0; i < 100 + ITERATIONS; i++) {
    const s = performance.now();
    await listLogs({ ctx, input: serviceInput });
    if (i >= 100) samples.push(performance.now() - s);
  }
  const sp = percentiles(samples);
  out(`| first page, list service only | ${Math.round(1000 / sp.mean)} | ${sp.p50.toFixed(2)} | ${sp.p99.toFixed(2)} | 100 |`);

  // (b) over HTTP: the server in its own process on the seeded file; this process generates the load.
  await running.close();
  spawned = await spawnServer(process.execPath, ["--import", "tsx", "server/main.ts"], {
    ...env,
    NODE_ENV: "production",
    WORKERS: values.workers,
  });
  const seconds = Number(values.seconds);
  const concurrency = Number(values.concurrency);
  out("");
  out(`(b) over HTTP, ${values.workers} server process(es), ${values.client} with ${concurrency} requests in flight for ${seconds} s each`);
  out("");
  out("| query | req/s | p50 ms | p99 ms | non-200 |");
  out("|---|---:|---:|---:|---:|");
  const load = values.client === "wrk" ? runWrk : runLoad;
  // Warm-up of the freshly started processes (JIT, page cache), not recorded.
  await load({ url: `${spawned.url}${scenarios[0].path(0)}`, headers, concurrency, seconds: 3 });
  for (const scenario of [scenarios[0], scenarios[1], scenarios[3]]) {
    const result = await load({ url: `${spawned.url}${scenario.path(0)}`, headers, concurrency, seconds });
    const bad = result.requests - (result.statuses[200] ?? 0) + result.errors;
    out(`| ${scenario.name} | ${Math.round(result.rps)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${bad} |`);
  }
} finally {
  const child = spawned?.child;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  if (!spawned) await running.close().catch(() => undefined);
  if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
}
