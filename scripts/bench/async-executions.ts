// Benchmark: queued (async) executions of start -> api (local HTTP server) -> response, logs persisted.
// The service runs in its own process(es) with ROLE=all (API and job workers); this process hosts the
// API target and the load generator. Accepting runs (202) and running them share the same cores.
// Reported: runs accepted per second while the load runs, and runs completed per second from the
// first request to the last completion (every accepted run executed and its log written).
// Usage: node --import tsx scripts/bench/async-executions.ts [-- --seconds 10 --concurrency 32 --workers 2]
import { createClient } from "@libsql/client";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startExecutionBench } from "./execution-bench.ts";
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
const bench = await startExecutionBench({
  env: { WORKERS: values.workers, WORKER_CONCURRENCY: values["worker-concurrency"] },
  cpuProfileDir: values["cpu-prof-dir"],
});
const { server, auth } = bench;

const db = createClient({ url: `file:${join(server.dataDir, "app.db")}` });
const count = async (sql: string) => Number((await db.execute(sql)).rows[0][0]);
async function drained(): Promise<number> {
  for (;;) {
    if ((await count("select count(*) from jobs where status in ('queued', 'processing')")) === 0) return performance.now();
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  const request = {
    url: bench.executeUrl,
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
  await bench.close();
}
