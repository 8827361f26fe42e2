import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_SANDBOX_LIMITS } from "../../../server/executor/sandbox/limits.ts";
import type { SandboxJob } from "../../../server/executor/sandbox/sandbox-job.ts";
import { BUSY_ERROR, CLOSED_ERROR, SandboxPool } from "../../../server/executor/sandbox/sandbox-pool.ts";
import { spawnSandboxThread } from "../../../server/executor/sandbox/spawn-sandbox-thread.ts";

const FAKE_THREAD = new URL("./fixtures/fake-thread.mjs", import.meta.url);
// Kept before any test fakes the timers: polling waits for threads, not for time.
const realSetTimeout = globalThis.setTimeout;

function job(body: string, timeoutMs = 1_000): SandboxJob {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, timeoutMs };
  return { subject: "Function", body, setupJson: "{}", globalNames: [], lineOffset: 2, lineCount: 1, limits };
}

/** Polls until the threads got somewhere (they answer asynchronously, from other threads). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => realSetTimeout(resolve, 5));
}

const pools: SandboxPool[] = [];

/** A pool whose threads are counted as they start and exit; `spawns` lists what each new thread is. */
function trackedPool(options: { threads?: number; maxQueued?: number; spawns?: Array<() => Worker> } = {}) {
  const workers: Worker[] = [];
  let spawned = 0;
  let exits = 0;
  const pool = new SandboxPool({
    threads: options.threads ?? 1,
    maxQueued: options.maxQueued ?? 100,
    graceMs: 1_000,
    startTimeoutMs: 30_000,
    spawn: () => {
      const worker = (options.spawns?.[spawned++] ?? (() => new Worker(FAKE_THREAD)))();
      workers.push(worker);
      worker.once("exit", () => exits++);
      return worker;
    },
  });
  pools.push(pool);
  return {
    pool,
    workers,
    get exits() {
      return exits;
    },
  };
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

describe("SandboxPool", () => {
  it("starts threads as runs need them, up to the limit, and queues the other runs", async () => {
    const { pool, workers } = trackedPool({ threads: 2 });
    const bodies = ["a", "b", "c", "d", "e"];
    const replies = bodies.map((body) => pool.run(job(body)));
    expect(pool.stats()).toEqual({ threads: 2, idle: 0, busy: 0, queued: 5 });
    expect(await Promise.all(replies)).toEqual(bodies.map((body) => ({ json: JSON.stringify(body), logs: [] })));
    // One thread may have answered them all before the other was ready: that one is idle once ready.
    expect(pool.stats()).toMatchObject({ threads: 2, busy: 0, queued: 0 });
    await until(() => pool.stats().idle === 2);
    expect(workers).toHaveLength(2);
  });

  it("answers 'The sandbox is busy' when the queue is full, without waiting", async () => {
    const { pool } = trackedPool({ threads: 1, maxQueued: 2 });
    const order: string[] = [];
    const runs = ["a", "b", "c"].map((body) =>
      pool.run(job(body)).then((reply) => {
        order.push(body);
        return reply;
      }),
    );
    expect(await Promise.all(runs)).toEqual([
      { json: '"a"', logs: [] },
      { json: '"b"', logs: [] },
      { error: BUSY_ERROR, logs: [] },
    ]);
    expect(order).toEqual(["c", "a", "b"]);
  });

  it("terminates a thread silent past the time limit plus the grace period, answers the time-limit error, and replaces it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const tracked = trackedPool();
    const { pool } = tracked;
    const silent = pool.run(job("silent", 50));
    await until(() => pool.stats().busy === 1);
    vi.advanceTimersByTime(1_049);
    expect(pool.stats()).toMatchObject({ threads: 1, busy: 1 });
    vi.advanceTimersByTime(1);
    expect(await silent).toEqual({ error: "Function timed out after 50 ms", logs: [] });
    expect(pool.stats()).toEqual({ threads: 0, idle: 0, busy: 0, queued: 0 });
    await until(() => tracked.exits === 1);

    expect(await pool.run(job("next"))).toEqual({ json: '"next"', logs: [] });
    expect(tracked.workers).toHaveLength(2);
  });

  it("drops a thread that crashes, answers its run with a clear error, and the next run works", async () => {
    const tracked = trackedPool();
    expect(await tracked.pool.run(job("crash"))).toEqual({
      error: "The JavaScript sandbox failed: its thread stopped (thread blew up)",
      logs: [],
    });
    expect(await tracked.pool.run(job("after"))).toEqual({ json: '"after"', logs: [] });
    expect(tracked.workers).toHaveLength(2);
    expect(tracked.exits).toBe(1);
  });

  it("fails the waiting runs when a thread cannot start, and tries a new one for the next run", async () => {
    const failing = () => new Worker(FAKE_THREAD, { workerData: { failStart: true } });
    const { pool, workers } = trackedPool({ spawns: [failing] });
    const replies = await Promise.all([pool.run(job("a")), pool.run(job("b"))]);
    const error = "The JavaScript sandbox could not be loaded: cannot load the sandbox";
    expect(replies).toEqual([
      { error, logs: [] },
      { error, logs: [] },
    ]);
    expect(await pool.run(job("c"))).toEqual({ json: '"c"', logs: [] });
    expect(workers).toHaveLength(2);
  });

  it("answers the waiting runs when a thread cannot even be created", async () => {
    const { pool } = trackedPool({
      spawns: [
        () => {
          throw new Error("no more threads");
        },
      ],
    });
    expect(await pool.run(job("a"))).toEqual({ error: "The JavaScript sandbox could not be loaded: no more threads", logs: [] });
    expect(await pool.run(job("b"))).toEqual({ json: '"b"', logs: [] });
  });

  it("close() stops every thread and answers the runs in flight and waiting", async () => {
    const tracked = trackedPool({ threads: 1 });
    const { pool } = tracked;
    const inFlight = pool.run(job("silent"));
    const waiting = pool.run(job("b"));
    await until(() => pool.stats().busy === 1);
    await pool.close();
    expect(await inFlight).toEqual({ error: CLOSED_ERROR, logs: [] });
    expect(await waiting).toEqual({ error: CLOSED_ERROR, logs: [] });
    expect(tracked.exits).toBe(1);
    expect(pool.stats()).toEqual({ threads: 0, idle: 0, busy: 0, queued: 0 });
    expect(await pool.run(job("later"))).toEqual({ error: CLOSED_ERROR, logs: [] });
  });

  it("replaces a real sandbox thread that stops mid-run", async () => {
    const tracked = trackedPool({ spawns: [spawnSandboxThread, spawnSandboxThread] });
    const { pool, workers } = tracked;
    const spinning = pool.run(job("while (true) {}", 20_000));
    await until(() => pool.stats().busy === 1);
    await workers[0].terminate();
    expect(await spinning).toEqual({ error: "The JavaScript sandbox failed: its thread stopped (exit code 1)", logs: [] });
    expect(await pool.run(job("return 6 * 7"))).toEqual({ json: "42", logs: [] });
    expect(workers).toHaveLength(2);
  });
});
