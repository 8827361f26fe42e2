import { afterAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import type { Database } from "../../../server/db/client.ts";
import { claimJobs } from "../../../server/jobs/claim-jobs.ts";
import { completeJob } from "../../../server/jobs/complete-job.ts";
import { enqueueJobs } from "../../../server/jobs/enqueue-job.ts";
import { createJobWorker } from "../../../server/jobs/job-worker.ts";
import type { Logger } from "../../../server/logger.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

const temp = await createTempDatabase();
afterAll(() => temp.cleanup());
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

describe("several clients on one database file", () => {
  it("two clients claiming 200 jobs at once never claim a job twice", async () => {
    const clock = new ManualClock();
    const clients: Database[] = [temp.database, await temp.open()];
    const ids = await enqueueJobs(
      temp.database,
      Array.from({ length: 200 }, (_, i) => ({ kind: "k", payload: i })),
      clock.now(),
    );
    const claimedBy = new Map<string, string[]>();
    // Each client claims small batches and completes them until nothing is left; the loops interleave.
    const drain = async (database: Database, workerId: string) => {
      for (;;) {
        const jobs = await claimJobs({ database, workerId, kinds: ["k"], limit: 7, leaseMs: 60_000, now: clock.now() });
        if (jobs.length === 0) return;
        for (const job of jobs) {
          claimedBy.set(job.id, [...(claimedBy.get(job.id) ?? []), workerId]);
          expect(await completeJob(database, job, workerId, clock.now())).toBe(true);
        }
      }
    };
    await Promise.all([drain(clients[0], "a"), drain(clients[1], "b"), drain(clients[0], "c"), drain(clients[1], "d")]);
    expect([...claimedBy.keys()].sort()).toEqual([...ids].sort());
    expect([...claimedBy.values()].filter((owners) => owners.length !== 1)).toEqual([]);
    expect(new Set([...claimedBy.values()].flat()).size).toBe(4);
    const counts = await temp.database.client.execute("SELECT status, count(*) AS n, max(attempts) AS a FROM jobs GROUP BY status");
    expect(counts.rows.map((r) => ({ ...r }))).toEqual([{ status: "completed", n: 200, a: 1 }]);
  });

  it("two workers (one per client) drain a queue together, each job run once", async () => {
    const clock = new ManualClock();
    await temp.database.client.execute("DELETE FROM jobs");
    const other = await temp.open();
    const ids = await enqueueJobs(
      temp.database,
      Array.from({ length: 200 }, (_, i) => ({ kind: "k", payload: i })),
      clock.now(),
    );
    const runs = new Map<string, number>();
    const handlers = {
      k: async (job: { id: string }) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        await new Promise((r) => setImmediate(r));
      },
    };
    const workers = [temp.database, other].map((database, i) =>
      createJobWorker({ database, clock, logger: silent, handlers, workerId: `w${i}`, concurrency: 8, batchSize: 4 }),
    );
    const perWorker = [0, 0];
    for (;;) {
      const done = await Promise.all(workers.map((w) => w.runOnce()));
      done.forEach((n, i) => (perWorker[i] += n));
      if (done[0] + done[1] === 0) break;
    }
    expect(perWorker[0] + perWorker[1]).toBe(200);
    expect(perWorker[0]).toBeGreaterThan(0);
    expect(perWorker[1]).toBeGreaterThan(0);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });
});
