import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeSandbox, configureSandbox, runUserCode, type SandboxOutcome } from "../../../server/executor/sandbox/index.ts";
import { sandboxPool } from "../../../server/executor/sandbox/sandbox-threads.ts";

// A short queue keeps the busy case small; the pool reads the same constant as with the real 1,000.
vi.mock("../../../server/executor/sandbox/limits.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../server/executor/sandbox/limits.ts")>()),
  MAX_QUEUED_RUNS: 4,
}));

const spin = (timeoutMs = 1_000) => runUserCode({ code: "while (true) {}", globals: {}, limits: { timeoutMs } });
const double = (n: number) => runUserCode({ code: "return input.n * 2", globals: { input: { n } } });

/** Polls until the threads got somewhere (they start and answer asynchronously). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Both threads started and idle, so that the next runs are dispatched at once. */
async function warm(): Promise<void> {
  await Promise.all([double(0), double(1)]);
  await until(() => sandboxPool().stats().idle === 2);
}

beforeAll(() => configureSandbox({ threads: 2 }));
afterAll(() => closeSandbox());

describe("sandbox threads", () => {
  it("keep the event loop free while user code spins", async () => {
    const order: string[] = [];
    const spinning = spin().then((outcome) => {
      order.push("run");
      return outcome;
    });
    setTimeout(() => order.push("timer"), 10);
    expect(await spinning).toEqual({ ok: false, error: "Function timed out after 1000 ms", logs: [] });
    expect(order).toEqual(["timer", "run"]);
  });

  it("run more runs than there are threads, queueing the rest", async () => {
    await warm();
    const outcomes = Promise.all([1, 2, 3, 4, 5, 6].map(double));
    expect(sandboxPool().stats()).toEqual({ threads: 2, idle: 0, busy: 2, queued: 4 });
    expect(await outcomes).toEqual([2, 4, 6, 8, 10, 12].map((value) => ({ ok: true, value, logs: [] })));
  });

  it("answer 'The sandbox is busy' at once when the queue is full", async () => {
    await warm();
    const order: string[] = [];
    const track = (label: string, outcome: Promise<SandboxOutcome>) =>
      outcome.then((o) => {
        order.push(label);
        return o;
      });
    const spinning = [track("spin", spin()), track("spin", spin())];
    const queued = [1, 2, 3, 4].map((n) => track("queued", double(n)));
    const refused = track("refused", double(5));
    expect(await refused).toEqual({ ok: false, error: "The sandbox is busy", logs: [] });
    expect(await Promise.all(queued)).toEqual([2, 4, 6, 8].map((value) => ({ ok: true, value, logs: [] })));
    expect(await Promise.all(spinning)).toEqual([1, 2].map(() => ({ ok: false, error: "Function timed out after 1000 ms", logs: [] })));
    // Refused without waiting; the queued runs waited for a thread to be free.
    expect(order.slice(0, 2)).toEqual(["refused", "spin"]);
  });

  it("stop on closeSandbox(): runs in flight get an error, and a later run starts a new pool", async () => {
    const pool = sandboxPool();
    const spinning = spin(20_000);
    await until(() => pool.stats().busy === 1);
    await closeSandbox();
    expect(await spinning).toEqual({ ok: false, error: "The sandbox was shut down", logs: [] });
    expect(pool.stats()).toEqual({ threads: 0, idle: 0, busy: 0, queued: 0 });

    expect(await double(21)).toEqual({ ok: true, value: 42, logs: [] });
    expect(sandboxPool()).not.toBe(pool);
  });

  it("refuse a thread count that is not a positive integer", () => {
    expect(() => configureSandbox({ threads: 0 })).toThrow(RangeError);
    expect(() => configureSandbox({ threads: 1.5 })).toThrow(RangeError);
  });
});
