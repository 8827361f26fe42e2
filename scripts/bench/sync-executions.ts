// Benchmark (b): synchronous executions of start -> api (local HTTP server) -> response, logs persisted.
// The service runs in its own process (as in production); this process hosts the local API target
// and the load generator. Usage: npm run bench:exec [-- --seconds 10 --concurrency 32]
import { createClient } from "@libsql/client";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { spawnServer } from "../../test/helpers/spawn-server.ts";
import { hasWrk, processTreeCpuMs, runLoad, runWrk } from "./load.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "32" },
    // Writes a V8 CPU profile of the service process into this folder.
    "cpu-prof-dir": { type: "string" },
    workers: { type: "string", default: "2" },
    // "wrk" (when installed) or "node".
    client: { type: "string", default: hasWrk() ? "wrk" : "node" },
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
    loops: {},
    parallels: {},
  };
  const wf = await call("/api/workflows", { method: "POST", headers: auth, body: { workspaceId: ws.data.id, name: "bench", state } });
  await call(`/api/workflows/${wf.data.id}/deploy`, { method: "POST", headers: auth });
  const sample = await call(`/api/workflows/${wf.data.id}/execute`, { method: "POST", headers: auth, body: { id: 7 } });
  if (!sample.success || sample.output?.item?.id !== 42) throw new Error(`unexpected output ${JSON.stringify(sample)}`);

  // Warm-up, then the measured run.
  const request = {
    url: `${server.url}/api/workflows/${wf.data.id}/execute`,
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ id: 7 }),
    concurrency,
  };
  const load = values.client === "wrk" ? runWrk : runLoad;
  await load({ ...request, seconds: 2 });
  const cpuBefore = processTreeCpuMs(server.child.pid as number);
  const result = await load({ ...request, seconds });
  const cpuPerRun = ((processTreeCpuMs(server.child.pid as number) - cpuBefore) * 1000) / Math.max(1, result.requests);

  const db = createClient({ url: `file:${join(server.dataDir, "app.db")}` });
  // Runs the load generator gave up on at the end still finish in the service: wait for them.
  for (let i = 0; i < 50; i++) {
    const running = await db.execute("select count(*) as n from execution_logs where status = 'running'");
    if (Number(running.rows[0]?.n) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const logs = await db.execute("select count(*) as n, sum(status = 'success') as ok from execution_logs");
  const failures = await db.execute(
    "select error, count(*) as n from execution_logs where status != 'success' group by error order by n desc limit 5",
  );
  db.close();

  const cpu = (await import("node:os")).cpus();
  process.stdout.write(
    [
      `machine: ${cpu.length} x ${cpu[0]?.model ?? "cpu"}, node ${process.version}`,
      `command: npm run bench:exec -- --seconds ${seconds} --concurrency ${concurrency} --workers ${values.workers} --client ${values.client}`,
      "",
      "| executions | seconds | executions/s | p50 ms | p99 ms | non-200 | logs persisted (success) | service CPU µs per execution |",
      "|---|---|---|---|---|---|---|---|",
      `| ${result.requests} | ${result.seconds.toFixed(1)} | ${result.rps.toFixed(0)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${result.requests - (result.statuses[200] ?? 0) + result.errors} | ${logs.rows[0]?.n} (${logs.rows[0]?.ok}) | ${cpuPerRun.toFixed(0)} |`,
      ...failures.rows.map((r) => `failed runs: ${r.n} x ${r.error}`),
      "",
    ].join("\n"),
  );
} finally {
  await server.stop();
  target.close();
}
