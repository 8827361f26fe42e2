// Benchmark of the job queue's own cost: no-op handlers, so every microsecond is enqueue + claim + completion.
// Usage: node --import tsx scripts/bench/job-queue.ts [--jobs 20000 --concurrency 64 --batch 64]
// 1. bulk: enqueue N in batches of 500, then drain them with one worker.
// 2. steady: enqueue N one at a time (one INSERT each, as an API request does), without a worker,
//    then while the worker drains; the difference is the worker's share.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { systemClock } from "../../server/clock.ts";
import { type Database, migrateDatabase, openDatabase } from "../../server/db/client.ts";
import { enqueueJob, enqueueJobs, type NewJob } from "../../server/jobs/enqueue-job.ts";
import { createJobWorker } from "../../server/jobs/job-worker.ts";
import { createLogger } from "../../server/logger.ts";

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "64" },
    batch: { type: "string", default: "64" },
  },
});
const total = Number(values.jobs);
const concurrency = Number(values.concurrency);
const batchSize = Number(values.batch);

const dir = mkdtempSync(join(tmpdir(), "wf-bench-jobs-"));
const database = await openDatabase(`file:${join(dir, "app.db")}`);
await migrateDatabase(database);

const job = (i: number): NewJob => ({ kind: "noop", payload: { workflowId: "wf_bench", input: { i } }, workspaceId: "ws_bench", userId: "usr_bench" });

/** Wall time and CPU time (user + system of this process) of `fn`. */
async function measure(fn: () => Promise<void>): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

/** Runs a started worker until `done` settlements were recorded. */
function drain(db: Database, done: number, whileRunning?: (wake: () => void) => Promise<void>) {
  return new Promise<void>((resolve, reject) => {
    let settled = 0;
    const worker = createJobWorker({
      database: db,
      clock: systemClock,
      logger: createLogger("error"),
      handlers: { noop: async () => null },
      concurrency,
      batchSize,
      pollIntervalMs: 5,
      onSettled: () => {
        if (++settled === done) void worker.stop().then(resolve, reject);
      },
    });
    worker.start();
    whileRunning?.(() => worker.wake()).catch(reject);
  });
}

const line = (name: string, r: { ms: number; cpuMs: number }) =>
  `${name.padEnd(38)} ${((total / r.ms) * 1000).toFixed(0).padStart(7)} jobs/s   ${((r.cpuMs * 1000) / total).toFixed(1).padStart(6)} µs CPU/job`;

try {
  const bulkEnqueue = await measure(async () => {
    for (let i = 0; i < total; i += 500) {
      await enqueueJobs(
        database,
        Array.from({ length: Math.min(500, total - i) }, (_, k) => job(i + k)),
        systemClock.now(),
      );
    }
  });
  const bulkDrain = await measure(() => drain(database, total));
  const singleEnqueue = await measure(async () => {
    for (let i = 0; i < total; i++) await enqueueJob(database, job(i), systemClock.now());
  });
  const backlog = await measure(() => drain(database, total));
  const steady = await measure(() =>
    drain(database, total, async (wake) => {
      for (let i = 0; i < total; i++) {
        await enqueueJob(database, job(i), systemClock.now());
        wake();
        // Yield now and then so the worker runs alongside, as it would beside request handling.
        if (i % 16 === 15) await new Promise((r) => setImmediate(r));
      }
    }),
  );
  const left = await database.client.execute("SELECT status, count(*) AS n FROM jobs GROUP BY status");
  process.stdout.write(
    [
      `job queue, ${total} jobs, concurrency ${concurrency}, claim batch ${batchSize}, no-op handler, one process`,
      line("enqueue (batches of 500)", bulkEnqueue),
      line("drain (claim + run + complete)", bulkDrain),
      line("enqueue one by one (no worker)", singleEnqueue),
      line("(drain of those)", backlog),
      line("enqueue one by one while draining", steady),
      `jobs by status: ${left.rows.map((r) => `${r.status}=${r.n}`).join(", ")}`,
      "",
    ].join("\n"),
  );
} finally {
  database.close();
  rmSync(dir, { recursive: true, force: true });
}
