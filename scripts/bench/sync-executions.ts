// Benchmark (b): synchronous executions of start -> api (local HTTP server) -> response, logs persisted.
// The service runs in its own process (as in production); this process hosts the local API target
// and the load generator. Usage: npm run bench:exec [-- --seconds 10 --concurrency 32]
import { createClient } from "@libsql/client";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startExecutionBench } from "./execution-bench.ts";
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
const bench = await startExecutionBench({ env: { WORKERS: values.workers }, cpuProfileDir: values["cpu-prof-dir"] });
const { server, auth } = bench;

try {
  // Warm-up, then the measured run.
  const request = {
    url: bench.executeUrl,
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
  await bench.close();
}
