// Benchmark: queued (async) executions of start -> api (local HTTP server) -> response, logs persisted.
// The service runs in its own process(es) with ROLE=all (API and job workers); this process hosts the
// API target and the load generator. Accepting runs (202) and running them share the same cores.
// Reported: runs accepted per second while the load runs, and runs completed per second from the
// first request to the last completion (every accepted run executed and its log written).
// Usage: node --import tsx scripts/bench/async-executions.ts [-- --seconds 10 --concurrency 32 --workers 2]
import { createClient } from "@libsql/client";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { spawnServer } from "../../test/helpers/spawn-server.ts";
import { hasWrk, processTreeCpuMs, runLoad, runWrk } from "./load.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "32" },
    workers: { type: "string", default: "2" },
    "worker-concurrency": { type: "string", default: "64" },
    client: { type: "string", default: hasWrk() ? "wrk" : "node" },
    // Writes a V8 CPU profile of the service process into this folder.
    "cpu-prof-dir": { type: "string" },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const ADMIN = "bench-admin-key-0123456789abcdef";
const unlimited = { requestsPerMinute: 10_000_000, maxBurst: 10_000_000 };
const license = JSON.stringify({
  payload: { licensee: "bench", plan: "enterprise", usageLimitUsd: 1e12, rateLimits: { api: unlimited, sync: unlimited, async: unlimited } },
});

const target = http.createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ id: 42, path: req.url, ok: true }));
});
await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

const profile = values["cpu-prof-dir"] ? ["--cpu-prof", `--cpu-prof-dir=${values["cpu-prof-dir"]}`] : [];
const server = await spawnServer(process.execPath, [...profile, "--import", "tsx", "server/main.ts"], {
  ADMIN_API_KEY: ADMIN,
  ALLOW_PRIVATE_NETWORK: "true",
  LICENSE: license,
  LOG_LEVEL: "error",
  NODE_ENV: "production",
  WORKERS: values.workers,
  WORKER_CONCURRENCY: values["worker-concurrency"],
});

async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const db = createClient({ url: `file:${join(server.dataDir, "app.db")}` });
const count = async (sql: string) => Number((await db.execute(sql)).rows[0][0]);
async function drained(): Promise<number> {
  for (;;) {
    if ((await count("select count(*) from jobs where status in ('queued', 'processing')")) === 0) return performance.now();
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  const admin = { "x-admin-key": ADMIN };
  const user = await call("/api/v1/admin/users", { method: "POST", headers: admin, body: { email: "bench@example.com", name: "Bench" } });
  const ws = await call("/api/v1/admin/workspaces", { method: "POST", headers: admin, body: { name: "Bench", ownerId: user.data.id } });
  const key = await call(`/api/v1/admin/users/${user.data.id}/api-keys`, { method: "POST", headers: admin, body: { name: "bench" } });
  const auth = { "x-api-key": key.data.key };
  const state = {
    blocks: {
      start: { type: "start", name: "Start" },
      call: { type: "api", name: "Call", params: { url: `${targetUrl}/items/{id}`, method: "GET", pathParams: { id: "<start.id>" }, query: { q: "bench" } } },
      respond: { type: "response", name: "Respond", params: { data: { item: "<call.data>", status: "<call.status>" } } },
    },
    edges: [
      { source: "start", target: "call" },
      { source: "call", target: "respond" },
    ],
  };
  const wf = await call("/api/workflows", { method: "POST", headers: auth, body: { workspaceId: ws.data.id, name: "bench", state } });
  await call(`/api/workflows/${wf.data.id}/deploy`, { method: "POST", headers: auth });

  const request = {
    url: `${server.url}/api/workflows/${wf.data.id}/execute`,
    method: "POST",
    headers: { ...auth, "content-type": "application/json", "x-execution-mode": "async" },
    body: JSON.stringify({ id: 7 }),
    concurrency,
  };
  const load = values.client === "wrk" ? runWrk : runLoad;
  await load({ ...request, seconds: 2 }); // warm-up
  await drained();
  const before = await count("select count(*) from execution_logs where status = 'success'");

  const cpuBefore = processTreeCpuMs(server.child.pid as number);
  const started = performance.now();
  const result = await load({ ...request, seconds });
  const loadEnded = performance.now();
  const ended = await drained();
  const cpuMs = processTreeCpuMs(server.child.pid as number) - cpuBefore;
  const completedRuns = (await count("select count(*) from execution_logs where status = 'success'")) - before;
  const jobs = await count("select count(*) from jobs");
  const logs = await count("select count(*) from execution_logs");
  const failed = await count("select count(*) from jobs where status = 'failed'");

  const cpu = cpus();
  process.stdout.write(
    [
      `machine: ${cpu.length} x ${cpu[0]?.model ?? "cpu"}, node ${process.version}`,
      `command: node --import tsx scripts/bench/async-executions.ts --seconds ${seconds} --concurrency ${concurrency} --workers ${values.workers} --worker-concurrency ${values["worker-concurrency"]} --client ${values.client}`,
      "",
      "| accepted | accepted/s | accept p50 ms | accept p99 ms | runs completed | completed/s (first request to last completion) | drain after load s | jobs (failed) | logs | service CPU µs per run |",
      "|---|---|---|---|---|---|---|---|---|---|",
      `| ${result.requests} | ${result.rps.toFixed(0)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${completedRuns} | ${(completedRuns / ((ended - started) / 1000)).toFixed(0)} | ${((ended - loadEnded) / 1000).toFixed(1)} | ${jobs} (${failed}) | ${logs} | ${((cpuMs * 1000) / Math.max(1, completedRuns)).toFixed(0)} |`,
      "",
    ].join("\n"),
  );
} finally {
  db.close();
  await server.stop();
  target.close();
}
