import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import type { Database } from "../../../server/db/client.ts";
import { claimJobs } from "../../../server/jobs/claim-jobs.ts";
import { completeJob } from "../../../server/jobs/complete-job.ts";
import { enqueueJob, enqueueJobStatement, enqueueJobs, newJobId } from "../../../server/jobs/enqueue-job.ts";
import { extendLease } from "../../../server/jobs/extend-lease.ts";
import { failJob } from "../../../server/jobs/fail-job.ts";
import { getJob } from "../../../server/jobs/get-job.ts";
import { JobFailure } from "../../../server/jobs/job-failure.ts";
import { pruneJobs } from "../../../server/jobs/prune-jobs.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

const temp = await createTempDatabase();
const database: Database = temp.database;
afterAll(() => temp.cleanup());

const clock = new ManualClock();
const LEASE = 30_000;
const claim = (workerId: string, kinds: string[] = ["test"], limit = 10) =>
  claimJobs({ database, workerId, kinds, limit, leaseMs: LEASE, now: clock.now() });

beforeEach(async () => {
  await database.client.execute("DELETE FROM jobs");
});

describe("enqueue, claim, complete", () => {
  it("claims a queued job once, runs it under a lease and stores its result", async () => {
    const { id, inserted } = await enqueueJob(
      database,
      { kind: "test", payload: { n: 1, text: "héllo" }, workspaceId: "ws_1", userId: "usr_1" },
      clock.now(),
    );
    expect(inserted).toBe(true);
    expect(id).toMatch(/^job_[0-9a-f]{32}$/);
    expect(await getJob(database, id)).toMatchObject({
      id,
      kind: "test",
      payload: { n: 1, text: "héllo" },
      status: "queued",
      runAt: clock.now(),
      attempts: 0,
      maxAttempts: 3,
      leaseOwner: null,
      workspaceId: "ws_1",
      userId: "usr_1",
      createdAt: clock.now(),
      startedAt: null,
      completedAt: null,
      result: null,
    });

    const [job] = await claim("w1");
    expect(job).toMatchObject({ id, status: "processing", attempts: 1, leaseOwner: "w1", leaseExpiresAt: clock.now() + LEASE, payload: { n: 1, text: "héllo" } });
    expect(await claim("w2")).toEqual([]);

    clock.advance(50);
    expect(await completeJob(database, job, { ok: true, items: [1, 2] }, clock.now())).toBe(true);
    expect(await getJob(database, id)).toMatchObject({
      status: "completed",
      result: { ok: true, items: [1, 2] },
      startedAt: clock.now() - 50,
      completedAt: clock.now(),
      leaseExpiresAt: null,
    });
    // Completing twice, or claiming a completed job, changes nothing.
    expect(await completeJob(database, job, "again", clock.now())).toBe(false);
    clock.advance(LEASE * 2);
    expect(await claim("w2")).toEqual([]);
    expect((await getJob(database, id))?.result).toEqual({ ok: true, items: [1, 2] });
  });

  it("makes ids that sort by creation time", () => {
    const ids = [0, 1, 255, 256, 1_000_000].map((dt) => newJobId(clock.now() + dt));
    expect(ids.every((id) => /^job_[0-9a-f]{32}$/.test(id))).toBe(true);
    expect([...ids].reverse().sort()).toEqual(ids);
  });

  it("returns null for an unknown job", async () => {
    expect(await getJob(database, "job_missing")).toBeNull();
  });

  it("enqueues a given id at most once", async () => {
    expect(await enqueueJob(database, { id: "tick_1", kind: "test", payload: 1 }, clock.now())).toEqual({ id: "tick_1", inserted: true });
    expect(await enqueueJob(database, { id: "tick_1", kind: "test", payload: 2 }, clock.now())).toEqual({ id: "tick_1", inserted: false });
    expect((await getJob(database, "tick_1"))?.payload).toBe(1);
  });

  it("rejects a job without kind or with a bad maxAttempts", () => {
    expect(() => enqueueJobStatement({ kind: "", payload: null }, 0)).toThrow(/kind/);
    expect(() => enqueueJobStatement({ kind: "k", payload: null, maxAttempts: 0 }, 0)).toThrow(/maxAttempts/);
  });

  it("commits a job only with the batch it was enqueued in (transactional outbox)", async () => {
    await database.client.execute("CREATE TABLE IF NOT EXISTS outbox_test (id TEXT PRIMARY KEY)");
    const kept = enqueueJobStatement({ kind: "test", payload: "kept" }, clock.now());
    await database.client.batch([{ sql: "INSERT INTO outbox_test VALUES ('a')", args: [] }, kept.statement], "write");
    const lost = enqueueJobStatement({ kind: "test", payload: "lost" }, clock.now());
    // The second insert of 'a' violates the primary key: the whole batch rolls back.
    await expect(
      database.client.batch([lost.statement, { sql: "INSERT INTO outbox_test VALUES ('a')", args: [] }], "write"),
    ).rejects.toThrow();
    expect(await getJob(database, kept.id)).not.toBeNull();
    expect(await getJob(database, lost.id)).toBeNull();
  });
});

describe("claims", () => {
  it("honours run_at: a delayed job is claimable only once its time has come", async () => {
    const { id } = await enqueueJob(database, { kind: "test", payload: null, runAt: clock.now() + 5000 }, clock.now());
    expect(await claim("w1")).toEqual([]);
    clock.advance(4999);
    expect(await claim("w1")).toEqual([]);
    clock.advance(1);
    expect((await claim("w1")).map((j) => j.id)).toEqual([id]);
  });

  it("claims in batches of at most `limit`, oldest run_at first, each job once", async () => {
    const base = clock.now();
    const ids = await enqueueJobs(
      database,
      Array.from({ length: 25 }, (_, i) => ({ kind: "test", payload: i, runAt: base - 25 + i })),
      base,
    );
    const first = await claim("w1", ["test"], 10);
    const second = await claim("w2", ["test"], 10);
    const third = await claim("w1", ["test"], 10);
    expect(first.map((j) => j.id)).toEqual(ids.slice(0, 10));
    expect(second.map((j) => j.id)).toEqual(ids.slice(10, 20));
    expect(third.map((j) => j.id)).toEqual(ids.slice(20));
    expect(await claim("w3", ["test"], 10)).toEqual([]);
  });

  it("claims only the kinds asked for", async () => {
    const [a, b, c] = await enqueueJobs(
      database,
      [
        { kind: "alpha", payload: null },
        { kind: "beta", payload: null },
        { kind: "gamma", payload: null },
      ],
      clock.now(),
    );
    expect((await claim("w1", ["beta"])).map((j) => j.id)).toEqual([b]);
    expect((await claim("w1", ["alpha", "gamma"])).map((j) => j.id).sort()).toEqual([a, c].sort());
    expect(await claim("w1", [])).toEqual([]);
  });

  it("uses the partial indexes for the claim (no scan of finished jobs)", async () => {
    const plan = await database.client.execute({
      sql:
        "EXPLAIN QUERY PLAN SELECT id FROM jobs WHERE status = 'queued' AND kind = ? AND run_at <= ? ORDER BY run_at LIMIT 10",
      args: ["test", 0],
    });
    expect(plan.rows.map((r) => String(r.detail)).join("\n")).toMatch(/USING INDEX jobs_due_idx/);
  });
});

describe("retries", () => {
  it("backs off exponentially after each failure, then fails for good with the last error", async () => {
    const { id } = await enqueueJob(database, { kind: "test", payload: null, maxAttempts: 3 }, clock.now());
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [job] = await claim("w1");
      expect(job.attempts).toBe(attempt);
      const failedAt = clock.now();
      const { applied, decision } = await failJob(database, job, new Error(`boom ${attempt}`), failedAt);
      expect(applied).toBe(true);
      const row = await getJob(database, id);
      if (attempt < 3) {
        expect(decision.status).toBe("queued");
        expect(row).toMatchObject({ status: "queued", lastError: `boom ${attempt}`, attempts: attempt, leaseExpiresAt: null });
        delays.push((row?.runAt ?? 0) - failedAt);
        // Not claimable before the backoff is over.
        clock.advance(delays[delays.length - 1] - 1);
        expect(await claim("w1")).toEqual([]);
        clock.advance(1);
      } else {
        expect(row).toMatchObject({ status: "failed", lastError: "boom 3", attempts: 3, completedAt: failedAt });
      }
    }
    expect(delays).toEqual([1000, 2000]);
    clock.advance(3_600_000);
    expect(await claim("w1")).toEqual([]);
  });

  it("fails at once on a JobFailure that says not to retry, and honours retryAfterMs", async () => {
    const { id } = await enqueueJob(database, { kind: "test", payload: null, maxAttempts: 5 }, clock.now());
    let [job] = await claim("w1");
    await failJob(database, job, new JobFailure("receiver is busy", { retryAfterMs: 15_000 }), clock.now());
    expect((await getJob(database, id))?.runAt).toBe(clock.now() + 15_000);
    clock.advance(15_000);
    [job] = await claim("w1");
    await failJob(database, job, new JobFailure("400 Bad Request", { retry: false }), clock.now());
    expect(await getJob(database, id)).toMatchObject({ status: "failed", attempts: 2, lastError: "400 Bad Request" });
  });
});

describe("leases", () => {
  it("re-claims a job whose lease expired and ignores the stale owner's outcome", async () => {
    const { id } = await enqueueJob(database, { kind: "test", payload: null }, clock.now());
    const [stale] = await claim("w1");
    clock.advance(LEASE - 1);
    expect(await claim("w2")).toEqual([]);
    clock.advance(2);
    const [current] = await claim("w2");
    expect(current).toMatchObject({ id, attempts: 2, leaseOwner: "w2", lostCount: 1, lastError: "worker lost (lease expired) on attempt 1" });

    expect(await completeJob(database, stale, "stale result", clock.now())).toBe(false);
    expect((await failJob(database, stale, new Error("stale failure"), clock.now())).applied).toBe(false);
    expect(await extendLease(database, stale, LEASE, clock.now())).toBe(false);
    expect(await getJob(database, id)).toMatchObject({ status: "processing", leaseOwner: "w2", attempts: 2 });

    expect(await completeJob(database, current, "fresh result", clock.now())).toBe(true);
    expect(await getJob(database, id)).toMatchObject({ status: "completed", result: "fresh result", leaseOwner: "w2" });
  });

  it("guards on the attempt too: the same worker's older claim cannot complete its newer one", async () => {
    await enqueueJob(database, { kind: "test", payload: null }, clock.now());
    const [first] = await claim("w1");
    clock.advance(LEASE + 1);
    const [second] = await claim("w1");
    expect(second.attempts).toBe(2);
    expect(await completeJob(database, first, "old", clock.now())).toBe(false);
    expect(await completeJob(database, second, "new", clock.now())).toBe(true);
  });

  it("lets a late owner complete while nobody has taken the job over", async () => {
    const { id } = await enqueueJob(database, { kind: "test", payload: null }, clock.now());
    const [job] = await claim("w1");
    clock.advance(LEASE * 3);
    expect(await completeJob(database, job, 1, clock.now())).toBe(true);
    expect((await getJob(database, id))?.status).toBe("completed");
  });

  it("extends a lease so that a long job is not taken over", async () => {
    const { id } = await enqueueJob(database, { kind: "test", payload: null }, clock.now());
    const [job] = await claim("w1");
    clock.advance(LEASE - 1000);
    expect(await extendLease(database, job, LEASE, clock.now())).toBe(true);
    clock.advance(LEASE - 1000);
    expect(await claim("w2")).toEqual([]);
    expect((await getJob(database, id))?.leaseExpiresAt).toBe(clock.now() + 1000);
  });

  it("fails a job whose worker was lost on every allowed attempt, saying so", async () => {
    const { id } = await enqueueJob(database, { kind: "test", payload: null, maxAttempts: 2 }, clock.now());
    expect(await claim("w1")).toHaveLength(1);
    clock.advance(LEASE + 1);
    expect(await claim("w2")).toHaveLength(1);
    clock.advance(LEASE + 1);
    expect(await claim("w3")).toEqual([]);
    expect(await getJob(database, id)).toMatchObject({
      status: "failed",
      attempts: 2,
      lostCount: 2,
      completedAt: clock.now(),
      lastError: "worker lost 2 times (lease expired), attempts exhausted (2 of 2)",
    });
  });

  it("counts only the lost attempts in the final error when failures and losses mix", async () => {
    const { id } = await enqueueJob(database, { kind: "test", payload: null, maxAttempts: 2 }, clock.now());
    const [job] = await claim("w1");
    await failJob(database, job, new Error("boom"), clock.now());
    clock.advance(60_000);
    expect(await claim("w1")).toHaveLength(1);
    clock.advance(LEASE + 1);
    expect(await claim("w1", ["some-other-kind"])).toEqual([]);
    expect((await getJob(database, id))?.lastError).toBe("worker lost 1 time (lease expired), attempts exhausted (2 of 2)");
  });
});

describe("pruneJobs", () => {
  it("deletes finished jobs older than the cut-off, bounded per call, and nothing else", async () => {
    const ids = await enqueueJobs(
      database,
      Array.from({ length: 4 }, () => ({ kind: "test", payload: null, maxAttempts: 1 })),
      clock.now(),
    );
    const claimed = await claim("w1", ["test"], 3);
    await completeJob(database, claimed[0], null, clock.now());
    await failJob(database, claimed[1], new Error("x"), clock.now());
    clock.advance(10);
    await completeJob(database, claimed[2], null, clock.now());
    expect(await pruneJobs({ database, before: clock.now(), limit: 1 })).toBe(1);
    expect(await pruneJobs({ database, before: clock.now(), limit: 10 })).toBe(1);
    expect(await pruneJobs({ database, before: clock.now(), limit: 10 })).toBe(0);
    const left = await database.client.execute("SELECT id FROM jobs ORDER BY id");
    expect(left.rows.map((r) => r.id).sort()).toEqual([claimed[2].id, ids[3]].sort());
  });
});
