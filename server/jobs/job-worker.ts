import type { InStatement } from "@libsql/client";
import { randomBytes } from "node:crypto";
import process from "node:process";
import { setImmediate } from "node:timers";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { claimedJobs, claimJobsStatement, failExhaustedJobsStatement } from "./claim-jobs.ts";
import { completeJobStatement } from "./complete-job.ts";
import { extendLeases } from "./extend-lease.ts";
import { failJobStatement } from "./fail-job.ts";
import type { ClaimedJob } from "./job.ts";
import type { JobContext, JobHandler, JobSettlement } from "./job-handler.ts";

export type JobWorkerOptions = {
  database: Database;
  clock: Clock;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  /** Lease owner on claimed rows; default `worker_<pid>_<random>`. Must be unique per worker. */
  workerId?: string;
  /** Handlers running at once (default 16). */
  concurrency?: number;
  /** Most jobs one claim takes (default: concurrency). */
  batchSize?: number;
  /** How long a claim is exclusive (default 60 s); renewed while the handler runs. */
  leaseMs?: number;
  /** How often to look for due jobs when nothing woke the worker (default 250 ms; at most a quarter lease, for renewals). */
  pollIntervalMs?: number;
  /** Backoff after failed attempt n of a job of `kind` (default `defaultRetryDelayMs`: 1 s, 2 s, 4 s ... 10 min). */
  retryDelayMs?: (attempt: number, kind: string) => number;
  /** Called once per claimed job after its outcome was written (metrics, tests). */
  onSettled?: (job: ClaimedJob, settlement: JobSettlement) => void;
};

export type JobWorker = {
  readonly workerId: string;
  /** Starts polling with real timers. */
  start(): void;
  /** Stops claiming and waits for the running handlers and their outcomes to be written. */
  stop(): Promise<void>;
  /** Looks for due jobs now instead of at the next poll (e.g. right after an in-process enqueue). */
  wake(): void;
  /**
   * One deterministic round without timers: renews due leases, fails lost exhausted jobs, claims
   * what fits, runs it and waits until every outcome of this round is written. Returns how many
   * jobs it ran.
   */
  runOnce(): Promise<number>;
  /** Handlers running now. */
  readonly inFlight: number;
};

type Running = { job: ClaimedJob; done: Promise<void> };
type Outcome = { job: ClaimedJob; extra: InStatement[]; statement: InStatement; settlement: JobSettlement; resolve: () => void };

/**
 * Builds a worker that has not started; `startJobWorker` is build + start. All its writes go
 * through `cycle`: one transaction holding the outcomes finished since the last one and, when
 * slots are free and work is likely due, the next claim (docs/jobs.md).
 */
export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const { database, clock, logger, handlers, onSettled } = options;
  const workerId = options.workerId ?? `worker_${process.pid}_${randomBytes(4).toString("hex")}`;
  const concurrency = options.concurrency ?? 16;
  const batchSize = Math.min(options.batchSize ?? concurrency, concurrency);
  const leaseMs = options.leaseMs ?? 60_000;
  // Leases are renewed by the poll, so it must come well within a lease.
  const pollIntervalMs = Math.min(options.pollIntervalMs ?? 250, leaseMs / 4);
  const retryDelayMs = options.retryDelayMs;
  const kinds = Object.keys(handlers);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError("concurrency must be a positive integer");
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError("batchSize must be a positive integer");

  const running = new Map<string, Running>();
  let outcomes: Outcome[] = [];
  let started = false;
  let stopping = false;
  let claimWanted = false;
  // The last claim came back full: more jobs are probably due, so claim again as slots free up.
  let moreDue = false;
  let cycleScheduled = false;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  // Cycles run one at a time, in order.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => {});
    return next;
  };

  /** Runs a cycle soon; everything settling or waking in this turn of the event loop joins it. */
  function requestCycle() {
    if (cycleScheduled) return;
    cycleScheduled = true;
    setImmediate(() => {
      cycleScheduled = false;
      serial(() => cycle(false, false)).catch((error) => logger.error("job worker cycle failed", { workerId, error: String(error) }));
    });
  }

  async function cycle(forceClaim: boolean, sweep: boolean): Promise<Running[]> {
    const batch = outcomes;
    outcomes = [];
    const wantClaim = (forceClaim || claimWanted) && !stopping && kinds.length > 0;
    claimWanted = false;
    // Slots of the jobs settling in this cycle are free once it commits.
    const limit = wantClaim ? Math.min(batchSize, concurrency - running.size + batch.length) : 0;
    if (batch.length === 0 && limit < 1 && !sweep) return [];
    const now = clock.now();
    const statements: InStatement[] = [];
    for (const o of batch) statements.push(...outcomeStatements(o));
    if (sweep) statements.push(failExhaustedJobsStatement(now));
    if (limit > 0) statements.push(claimJobsStatement({ workerId, kinds, limit, leaseMs, now }));
    let claimed: ClaimedJob[] = [];
    try {
      const results = await database.client.batch(statements, "write");
      let i = 0;
      for (const o of batch) {
        o.settlement.applied = results[i].rowsAffected === 1;
        i += outcomeStatements(o).length;
      }
      if (limit > 0) claimed = claimedJobs(results[results.length - 1]);
    } catch (error) {
      logger.error("could not write job outcomes and claims", { workerId, outcomes: batch.length, error: String(error) });
      await writeSeparately(batch);
    }
    for (const o of batch) finish(o);
    if (limit > 0) moreDue = claimed.length === limit;
    const runs = claimed.map(run);
    if (started && !stopping && moreDue && running.size < concurrency) {
      claimWanted = true;
      requestCycle();
    }
    return runs;
  }

  /**
   * After a failed combined write. A handler's own statements are the likely cause, so the plain
   * outcomes are written together once more and each outcome carrying statements is retried
   * alone, failing its attempt if they still cannot be written. What is still not written stays
   * `processing`: its lease runs out into a retry.
   */
  async function writeSeparately(batch: Outcome[]) {
    const plain = batch.filter((o) => o.extra.length === 0);
    const carrying = batch.filter((o) => o.extra.length > 0);
    if (carrying.length === 0) return;
    if (plain.length > 0) {
      try {
        const results = await database.client.batch(
          plain.map((o) => o.statement),
          "write",
        );
        plain.forEach((o, i) => (o.settlement.applied = results[i].rowsAffected === 1));
      } catch (error) {
        logger.error("could not write job outcomes", { workerId, outcomes: plain.length, error: String(error) });
      }
    }
    for (const o of carrying) {
      try {
        const results = await database.client.batch(outcomeStatements(o), "write");
        o.settlement.applied = results[0].rowsAffected === 1;
      } catch (error) {
        const { statement, decision } = failJobStatement(o.job, error, clock.now(), failOptions(o.job));
        logger.warn("job attempt failed", { jobId: o.job.id, kind: o.job.kind, attempt: o.job.attempts, next: decision.status, error: decision.error });
        try {
          o.settlement = { ...decision, applied: (await database.client.execute(statement)).rowsAffected === 1 };
        } catch (again) {
          logger.error("could not record a job failure", { jobId: o.job.id, error: String(again) });
        }
      }
    }
  }

  function finish(o: Outcome) {
    running.delete(o.job.id);
    if (!o.settlement.applied) logger.warn("job outcome not recorded", { jobId: o.job.id, kind: o.job.kind, attempt: o.job.attempts });
    try {
      onSettled?.(o.job, o.settlement);
    } catch (error) {
      logger.error("onSettled threw", { error: String(error) });
    }
    o.resolve();
  }

  const failOptions = (job: ClaimedJob) => ({ retryDelayMs: retryDelayMs && ((attempt: number) => retryDelayMs(attempt, job.kind)) });

  function run(job: ClaimedJob): Running {
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const extra: InStatement[] = [];
    const context: JobContext = { completeWith: (statements) => extra.push(...statements) };
    const settle = (outcome: Omit<Outcome, "job" | "resolve">) => {
      outcomes.push({ job, resolve, ...outcome });
      if (started && moreDue) claimWanted = true;
      requestCycle();
    };
    Promise.resolve()
      .then(() => handlers[job.kind](job, context))
      .then((result) => completeJobStatement(job, result, clock.now()))
      .then(
        (statement) => settle({ extra, statement, settlement: { status: "completed", applied: false } }),
        (error: unknown) => {
          const { statement, decision } = failJobStatement(job, error, clock.now(), failOptions(job));
          logger.warn("job attempt failed", { jobId: job.id, kind: job.kind, attempt: job.attempts, next: decision.status, error: decision.error });
          settle({ extra: [], statement, settlement: { ...decision, applied: false } });
        },
      );
    const entry = { job, done };
    running.set(job.id, entry);
    return entry;
  }

  async function renewLeases() {
    const now = clock.now();
    const due = [...running.values()].filter((r) => r.job.leaseExpiresAt - now <= leaseMs / 2).map((r) => r.job);
    if (due.length === 0) return;
    try {
      const extended = await extendLeases(database, due, leaseMs, now);
      due.forEach((job, i) => {
        if (extended[i]) job.leaseExpiresAt = now + leaseMs;
        else logger.warn("job lease lost while running", { jobId: job.id, kind: job.kind, attempt: job.attempts });
      });
    } catch (error) {
      logger.error("could not renew job leases", { workerId, count: due.length, error: String(error) });
    }
  }

  const round = () =>
    serial(async () => {
      await renewLeases();
      return cycle(true, true);
    });

  async function poll() {
    pollTimer = undefined;
    try {
      await round();
    } catch (error) {
      logger.error("could not poll for jobs", { workerId, error: String(error) });
    }
    if (started && !stopping) pollTimer = setTimeout(poll, pollIntervalMs);
  }

  return {
    workerId,
    get inFlight() {
      return running.size;
    },
    start() {
      if (started || stopping) return;
      started = true;
      void poll();
    },
    async stop() {
      stopping = true;
      if (pollTimer) clearTimeout(pollTimer);
      pollTimer = undefined;
      // A cycle under way may still start the jobs it claimed: wait for it, then for them.
      for (;;) {
        await chain;
        if (running.size === 0) return;
        await Promise.all([...running.values()].map((r) => r.done));
      }
    },
    wake() {
      if (!started || stopping) return;
      claimWanted = true;
      requestCycle();
    },
    async runOnce() {
      const runs = await round();
      await Promise.all(runs.map((r) => r.done));
      return runs.length;
    },
  };
}

/** Builds a worker and starts polling. */
export function startJobWorker(options: JobWorkerOptions): JobWorker {
  const worker = createJobWorker(options);
  worker.start();
  return worker;
}

/**
 * An outcome's writes: its guarded completion first, then (when the handler gave any) a check that
 * the completion applied, then the handler's statements. A worker whose claim was taken over after
 * its lease ran out must not write the run's record as well as the new owner: the check fails the
 * transaction, and the retry of this outcome alone fails again without writing anything.
 */
function outcomeStatements(o: { statement: InStatement; extra: InStatement[] }): InStatement[] {
  return o.extra.length === 0 ? [o.statement] : [o.statement, CLAIM_STILL_HELD, ...o.extra];
}

// changes() counts the rows the previous statement (the guarded completion) changed; json() of text
// that is not JSON raises an error, which rolls the whole batch back.
const CLAIM_STILL_HELD: InStatement = {
  sql: "SELECT CASE WHEN changes() = 1 THEN 1 ELSE json('the job was claimed by another worker') END",
  args: [],
};
