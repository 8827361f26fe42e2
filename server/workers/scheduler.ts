import type { InStatement } from "@libsql/client";
import { createHash, randomBytes } from "node:crypto";
import type { AppDeps } from "../context.ts";
import { enqueueJobStatement } from "../jobs/enqueue-job.ts";
import { assertWithinUsageLimit, takeExecutionToken } from "../limits/execution-limits.ts";
import { closeFailedQueuedRuns } from "../services/executions/close-failed-queued-runs.ts";
import { closeInterruptedRuns } from "../services/executions/close-interrupted-runs.ts";
import { EXECUTION_JOB, type ExecutionJobPayload, queuedRunLog } from "../services/executions/execution-job.ts";
import { EXECUTION_JOB_ATTEMPTS } from "../services/workflows/queue-execution.ts";
import { dueTicks, parseSchedule, scheduleTickKey } from "../triggers/schedule/index.ts";
import { acquireLease, releaseLease } from "./acquire-lease.ts";

export const SCHEDULER_LEASE = "scheduler";
/** Rounds between two sweeps for runs nobody will finish. */
const SWEEP_ROUNDS = 10;

/** The execution id of a schedule tick's run: the same for every process that enqueues the tick. */
export function tickExecutionId(workflowId: string, tickMs: number): string {
  return `exec_${createHash("sha256").update(scheduleTickKey(workflowId, tickMs)).digest("hex").slice(0, 32)}`;
}

export type SchedulerOptions = {
  /** Lease holder name; unique per process. */
  ownerId?: string;
  /** How long leadership lasts without renewal (default 15 s). */
  leaseMs?: number;
  /** How often the loop looks for due ticks (default 1 s). */
  intervalMs?: number;
};

export type Scheduler = {
  /** One round: take or renew the lease and, as leader, enqueue every due tick. Returns the ticks it enqueued (a tick another process enqueued first counts, and stays one job). */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
};

type Deps = Pick<AppDeps, "database" | "db" | "clock" | "logger" | "license" | "tokens" | "jobs" | "processId">;

// Deployed schedules whose next tick has come (or was never computed), with who pays for the runs.
const dueSchedulesSql =
  "SELECT t.workflow_id, t.workspace_id, t.deployment_id, t.config, t.created_at, s.last_tick_at, w.owner_id " +
  "FROM workflow_triggers t JOIN workspaces w ON w.id = t.workspace_id " +
  "LEFT JOIN schedule_states s ON s.workflow_id = t.workflow_id " +
  "WHERE t.kind = 'schedule' AND (s.workflow_id IS NULL OR s.next_tick_at <= ?)";

const saveStateSql =
  "INSERT INTO schedule_states (workflow_id, last_tick_at, next_tick_at, updated_at) VALUES (?1, ?2, ?3, ?4) " +
  "ON CONFLICT (workflow_id) DO UPDATE SET last_tick_at = max(coalesce(?2, last_tick_at), coalesce(last_tick_at, ?2)), " +
  "next_tick_at = ?3, updated_at = ?4";

/**
 * The schedule trigger (docs/schedules.md). Every worker process runs this loop; the one holding the
 * `scheduler` lease enqueues. A tick's job id is its tick key, so even two processes that both
 * believe they lead enqueue each tick once. After downtime only the latest missed tick runs. A run
 * is billed to the workspace's owner and takes a token of their async bucket; a tick refused by
 * the usage limit or the bucket is skipped with a warning.
 */
export function createScheduler(deps: Deps, options: SchedulerOptions = {}): Scheduler {
  const ownerId = options.ownerId ?? `scheduler_${process.pid}_${randomBytes(4).toString("hex")}`;
  const leaseMs = options.leaseMs ?? 15_000;
  const intervalMs = options.intervalMs ?? 1_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let round: Promise<number> | undefined;
  let rounds = 0;

  async function runOnce(): Promise<number> {
    const now = deps.clock.now();
    if (!(await acquireLease(deps.database, SCHEDULER_LEASE, ownerId, now, leaseMs))) return 0;
    // Every few rounds the leader also closes the logs of runs nobody will finish: queued runs whose
    // jobs ended failed, and runs of processes that died. A failing sweep does not hold ticks back.
    if (rounds++ % SWEEP_ROUNDS === 0) {
      try {
        const closed = await closeFailedQueuedRuns(deps.database, now);
        if (closed > 0) deps.logger.warn("closed the logs of queued runs whose jobs failed", { count: closed });
        await closeInterruptedRuns({ ctx: deps });
      } catch (error) {
        deps.logger.warn("sweep for unfinished runs failed", { error: String(error) });
      }
    }
    const { rows } = await deps.database.client.execute({ sql: dueSchedulesSql, args: [now] });
    let enqueued = 0;
    for (const row of rows) {
      const workflowId = row[0] as string;
      const workspaceId = row[1] as string;
      const deploymentId = row[2] as string;
      const config = row[3] as string;
      const deployedAt = row[4] as number;
      const lastTickAt = row[5] as number | null;
      const billedTo = row[6] as string;
      const schedule = parseSchedule(JSON.parse(config) as { cron?: unknown; timezone?: unknown });
      if ("error" in schedule) {
        deps.logger.warn("schedule skipped: invalid", { workflowId, error: schedule.error });
        await deps.database.client.execute({ sql: saveStateSql, args: [workflowId, null, null, now] });
        continue;
      }
      const { due, next } = dueTicks(schedule, lastTickAt, now, deployedAt);
      const statements: InStatement[] = [{ sql: saveStateSql, args: [workflowId, due, next, now] }];
      if (due !== null && (await admit(workflowId, billedTo))) {
        const payload: ExecutionJobPayload = {
          workflowId,
          workspaceId,
          deploymentId,
          // Derived from the tick, like the job id: a tick enqueued twice is one run with one log row.
          executionId: tickExecutionId(workflowId, due),
          userId: billedTo,
          trigger: "schedule",
          input: { scheduledAt: new Date(due).toISOString() },
        };
        const job = { id: scheduleTickKey(workflowId, due), kind: EXECUTION_JOB, payload, maxAttempts: EXECUTION_JOB_ATTEMPTS, workspaceId, userId: billedTo };
        statements.unshift(enqueueJobStatement(job, now).statement, queuedRunLog(deps.db, payload, now));
        enqueued++;
      }
      // The tick's job and the schedule's new position are written together.
      await deps.database.client.batch(statements, "write");
    }
    if (enqueued > 0) deps.jobs.wake();
    return enqueued;
  }

  async function admit(workflowId: string, userId: string): Promise<boolean> {
    try {
      await assertWithinUsageLimit(deps, userId);
      await takeExecutionToken(deps, userId, "async");
      return true;
    } catch (error) {
      deps.logger.warn("schedule tick skipped", { workflowId, reason: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  const loop = () => {
    if (stopped) return;
    round = runOnce().catch((error: unknown) => {
      deps.logger.error("scheduler round failed", { error: String(error) });
      return 0;
    });
    void round.then(() => {
      if (!stopped) timer = setTimeout(loop, intervalMs);
    });
  };

  return {
    runOnce,
    start: () => {
      stopped = false;
      loop();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await round;
      await releaseLease(deps.database, SCHEDULER_LEASE, ownerId).catch(() => undefined);
    },
  };
}
