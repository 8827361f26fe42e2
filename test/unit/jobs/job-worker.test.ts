import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import type { Database } from "../../../server/db/client.ts";
import { claimJobs } from "../../../server/jobs/claim-jobs.ts";
import { enqueueJob, enqueueJobs } from "../../../server/jobs/enqueue-job.ts";
import { getJob } from "../../../server/jobs/get-job.ts";
import type { ClaimedJob } from "../../../server/jobs/job.ts";
import { JobFailure } from "../../../server/jobs/job-failure.ts";
import type { JobHandler, JobSettlement } from "../../../server/jobs/job-handler.ts";
import { createJobWorker, type JobWorkerOptions } from "../../../server/jobs/job-worker.ts";
import type { Logger } from "../../../server/logger.ts";
import { eventually } from "../../helpers/eventually.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

const temp = await createTempDatabase();
const database: Database = temp.database;
afterAll(() => temp.cleanup());

let clock: ManualClock;
let warnings: string[];
const logger: Logger = { debug() {}, info() {}, warn: (msg) => warnings.push(msg), error: (msg) => warnings.push(`error: ${msg}`) };
const HOUR = 3_600_000;

beforeEach(async () => {
  await database.client.execute("DELETE FROM jobs");
  clock = new ManualClock();
  warnings = [];
});

function worker(handlers: Record<string, JobHandler>, options: Partial<JobWorkerOptions> = {}) {
  const settled: Array<{ id: string; settlement: JobSettlement }> = [];
  const w = createJobWorker({
    database,
    clock,
    logger,
    handlers,
    workerId: "w-test",
    pollIntervalMs: HOUR,
    onSettled: (job, settlement) => settled.push({ id: job.id, settlement }),
    ...options,
  });
  return Object.assign(w, { settled });
}

/** A promise with its resolver, to hold a handler until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

/** A handler that holds every job until `release()`; `started(n)` resolves once n jobs are running. */
function heldHandler<T>(result: T) {
  const release = gate();
  let count = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const handler: JobHandler = async () => {
    count++;
    for (const w of waiters) if (count >= w.n) w.resolve();
    await release.opened;
    return result;
  };
  return {
    handler,
    release: release.open,
    get count() {
      return count;
    },
    started: (n = 1) => new Promise<void>((resolve) => (count >= n ? resolve() : waiters.push({ n, resolve }))),
  };
}

/** Resolves when `count` settlements have been reported. */
function settledCount(settled: unknown[], count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (settled.length >= count ? resolve() : setImmediate(check));
    check();
  });
}

describe("createJobWorker.runOnce", () => {
  it("runs the due jobs of its kinds and stores each handler's result", async () => {
    const ids = await enqueueJobs(
      database,
      [1, 2, 3].map((n) => ({ kind: "double", payload: { n } })),
      clock.now(),
    );
    const { id: other } = await enqueueJob(database, { kind: "not-mine", payload: null }, clock.now());
    const w = worker({ double: async (job) => ({ doubled: (job.payload as { n: number }).n * 2 }) });
    expect(await w.runOnce()).toBe(3);
    for (const [i, id] of ids.entries()) {
      expect(await getJob(database, id)).toMatchObject({ status: "completed", result: { doubled: (i + 1) * 2 }, attempts: 1 });
    }
    expect((await getJob(database, other))?.status).toBe("queued");
    expect(w.settled.map((s) => s.settlement)).toEqual(Array(3).fill({ status: "completed", applied: true }));
    expect(await w.runOnce()).toBe(0);
  });

  it("retries a throwing handler after the backoff and fails it after max attempts", async () => {
    const { id } = await enqueueJob(database, { kind: "flaky", payload: null, maxAttempts: 3 }, clock.now());
    let calls = 0;
    const w = worker({
      flaky: async () => {
        calls++;
        throw new Error(`failure ${calls}`);
      },
    });
    expect(await w.runOnce()).toBe(1);
    expect(await getJob(database, id)).toMatchObject({ status: "queued", lastError: "failure 1", runAt: clock.now() + 1000 });
    expect(await w.runOnce()).toBe(0);
    clock.advance(1000);
    expect(await w.runOnce()).toBe(1);
    clock.advance(2000);
    expect(await w.runOnce()).toBe(1);
    clock.advance(HOUR);
    expect(await w.runOnce()).toBe(0);
    expect(calls).toBe(3);
    expect(await getJob(database, id)).toMatchObject({ status: "failed", attempts: 3, lastError: "failure 3" });
    expect(w.settled.map((s) => s.settlement.status)).toEqual(["queued", "queued", "failed"]);
    expect(warnings.filter((m) => m === "job attempt failed")).toHaveLength(3);
  });

  it("uses the per-kind retry delay and a handler's JobFailure", async () => {
    const { id } = await enqueueJob(database, { kind: "deliver", payload: null, maxAttempts: 5 }, clock.now());
    let calls = 0;
    const w = worker(
      {
        deliver: async () => {
          calls++;
          throw calls === 1 ? new Error("503") : new JobFailure("401 Unauthorized", { retry: false });
        },
      },
      { retryDelayMs: (attempt, kind) => (kind === "deliver" ? [5000, 15_000][attempt - 1] : 1) },
    );
    await w.runOnce();
    expect((await getJob(database, id))?.runAt).toBe(clock.now() + 5000);
    clock.advance(5000);
    await w.runOnce();
    expect(await getJob(database, id)).toMatchObject({ status: "failed", attempts: 2, lastError: "401 Unauthorized" });
  });

  it("runs at most `concurrency` handlers at once", async () => {
    await enqueueJobs(
      database,
      Array.from({ length: 5 }, () => ({ kind: "slow", payload: null })),
      clock.now(),
    );
    const slow = heldHandler(null);
    const w = worker({ slow: slow.handler }, { concurrency: 2, batchSize: 10 });
    const round = w.runOnce();
    await slow.started(2);
    const processing = await database.client.execute("SELECT count(*) AS n FROM jobs WHERE status = 'processing'");
    expect(processing.rows[0].n).toBe(2);
    expect(w.inFlight).toBe(2);
    // No free slot: another round claims nothing.
    expect(await w.runOnce()).toBe(0);
    slow.release();
    expect(await round).toBe(2);
    expect(slow.count).toBe(2);
    expect(w.inFlight).toBe(0);
  });

  it("renews the lease of a long-running job so that nobody takes it over", async () => {
    const { id } = await enqueueJob(database, { kind: "long", payload: null }, clock.now());
    const long = heldHandler("done");
    const w = worker({ long: long.handler }, { leaseMs: 10_000, concurrency: 1 });
    const round = w.runOnce();
    await long.started();
    clock.advance(4000);
    await w.runOnce(); // 6 s of lease left: more than half, nothing to renew yet
    expect((await getJob(database, id))?.leaseExpiresAt).toBe(clock.now() + 6000);
    clock.advance(2000);
    await w.runOnce(); // 4 s left: renewed to a full lease
    expect((await getJob(database, id))?.leaseExpiresAt).toBe(clock.now() + 10_000);
    clock.advance(9000);
    expect(await claimJobs({ database, workerId: "other", kinds: ["long"], limit: 1, leaseMs: 10_000, now: clock.now() })).toEqual([]);
    long.release();
    await round;
    expect(await getJob(database, id)).toMatchObject({ status: "completed", result: "done", attempts: 1 });
  });

  it("reports a stale outcome as not applied and leaves the new owner's result alone", async () => {
    const { id } = await enqueueJob(database, { kind: "k", payload: null }, clock.now());
    const held = heldHandler("stale");
    const stale = worker({ k: held.handler }, { leaseMs: 1000, workerId: "w-stale" });
    const round = stale.runOnce();
    await held.started();
    clock.advance(1001);
    const fresh = worker({ k: async () => "fresh" }, { leaseMs: 1000, workerId: "w-fresh" });
    expect(await fresh.runOnce()).toBe(1);
    held.release();
    await round;
    expect(stale.settled).toEqual([{ id, settlement: { status: "completed", applied: false } }]);
    expect(warnings).toContain("job outcome not recorded");
    expect(await getJob(database, id)).toMatchObject({ status: "completed", result: "fresh", leaseOwner: "w-fresh", attempts: 2 });
  });
});

describe("JobContext.completeWith", () => {
  it("commits a handler's statements with its completion; a failing one fails only its own attempt", async () => {
    await database.client.execute("CREATE TABLE IF NOT EXISTS side_effects (id TEXT PRIMARY KEY)");
    await database.client.execute("DELETE FROM side_effects");
    await database.client.execute("INSERT INTO side_effects VALUES ('taken')");
    const [ok, bad, plain, thrower] = await enqueueJobs(
      database,
      ["ok", "bad", "plain", "thrower"].map((name) => ({ kind: "k", payload: name, maxAttempts: 2 })),
      clock.now(),
    );
    const insert = (id: string) => ({ sql: "INSERT INTO side_effects VALUES (?)", args: [id] });
    const w = worker(
      {
        k: async (job, context) => {
          if (job.payload === "ok") context.completeWith([insert(job.id)]);
          if (job.payload === "bad") context.completeWith([insert("taken")]);
          if (job.payload === "thrower") {
            context.completeWith([insert(job.id)]);
            throw new Error("handler failed");
          }
          return job.payload;
        },
      },
      { concurrency: 4 },
    );
    // All four settle in the same turn, so they share one write, which the duplicate key breaks.
    expect(await w.runOnce()).toBe(4);
    expect(await getJob(database, ok)).toMatchObject({ status: "completed", result: "ok" });
    expect(await getJob(database, plain)).toMatchObject({ status: "completed", result: "plain" });
    expect(await getJob(database, bad)).toMatchObject({ status: "queued", attempts: 1, lastError: expect.stringMatching(/UNIQUE constraint failed/) });
    expect(await getJob(database, thrower)).toMatchObject({ status: "queued", lastError: "handler failed" });
    const effects = await database.client.execute("SELECT id FROM side_effects ORDER BY id");
    expect(effects.rows.map((r) => r.id)).toEqual([ok, "taken"].sort());
    const byId = new Map(w.settled.map((s) => [s.id, s.settlement]));
    expect(byId.get(ok)).toEqual({ status: "completed", applied: true });
    expect(byId.get(bad)).toMatchObject({ status: "queued", applied: true });
    expect(warnings).toContain("error: could not write job outcomes and claims");
  });
});

describe("JobContext.completeWith after a lost lease", () => {
  it("writes nothing of a worker whose claim was taken over: the new owner's record stands alone", async () => {
    await database.client.execute("CREATE TABLE IF NOT EXISTS side_effects (id TEXT PRIMARY KEY)");
    await database.client.execute("DELETE FROM side_effects");
    const { id } = await enqueueJob(database, { kind: "k", payload: "p", maxAttempts: 3 }, clock.now());
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const insert = (who: string) => ({ sql: "INSERT INTO side_effects VALUES (?)", args: [who] });
    // A is stalled (no lease renewals: its handler never yields to a renewal before the lease ends).
    const a = worker({ k: async (_job, context) => { await held; context.completeWith([insert("a")]); return "a"; } }, { workerId: "w-a", leaseMs: 1_000 });
    const b = worker({ k: async (_job, context) => { context.completeWith([insert("b")]); return "b"; } }, { workerId: "w-b", leaseMs: 1_000 });
    const aRound = a.runOnce();
    await eventually(async () => ((await getJob(database, id))?.leaseOwner === "w-a" ? true : undefined), "A to claim the job");
    clock.advance(5_000);
    expect(await b.runOnce()).toBe(1);
    release();
    expect(await aRound).toBe(1);
    const effects = await database.client.execute("SELECT id FROM side_effects");
    expect(effects.rows.map((r) => r.id)).toEqual(["b"]);
    expect(await getJob(database, id)).toMatchObject({ status: "completed", result: "b", leaseOwner: "w-b" });
    expect(a.settled[0].settlement.applied).toBe(false);
  });
});

describe("createJobWorker.start", () => {
  it("works through a backlog without waiting for a poll, and starts at once on wake()", async () => {
    await enqueueJobs(
      database,
      Array.from({ length: 10 }, (_, i) => ({ kind: "k", payload: i })),
      clock.now(),
    );
    const seen: number[] = [];
    const w = worker(
      {
        k: async (job: ClaimedJob) => {
          seen.push(job.payload as number);
        },
      },
      { concurrency: 2 },
    );
    w.start();
    // The poll interval is an hour: only the refill after full claims can drain all ten.
    await settledCount(w.settled, 10);
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    const { id } = await enqueueJob(database, { kind: "k", payload: 10 }, clock.now());
    w.wake();
    await settledCount(w.settled, 11);
    expect((await getJob(database, id))?.status).toBe("completed");
    await w.stop();
  });

  it("stop() waits for running handlers to finish and be recorded, then claims nothing more", async () => {
    const { id } = await enqueueJob(database, { kind: "k", payload: null }, clock.now());
    const held = heldHandler("finished");
    const w = worker({ k: held.handler });
    w.start();
    await held.started();
    let stopped = false;
    const stopping = w.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    held.release();
    await stopping;
    expect(await getJob(database, id)).toMatchObject({ status: "completed", result: "finished" });

    const { id: later } = await enqueueJob(database, { kind: "k", payload: null }, clock.now());
    w.wake();
    expect(await w.runOnce()).toBe(0);
    expect((await getJob(database, later))?.status).toBe("queued");
  });
});
