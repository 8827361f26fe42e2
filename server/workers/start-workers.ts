import type { AppDeps } from "../context.ts";
import { startJobWorker } from "../jobs/job-worker.ts";
import { EXECUTION_JOB, executionJobHandler } from "../services/executions/execution-job.ts";
import { createScheduler } from "./scheduler.ts";

export type Workers = { stop(): Promise<void> };

/**
 * The background work of a `worker` (or `all`) process: the job worker running queued executions,
 * and the scheduler enqueueing schedule ticks (as leader). Requests of the same process wake the
 * job worker (deps.jobs) so a queued run starts at once.
 */
export function startWorkers(deps: AppDeps): Workers {
  const worker = startJobWorker({
    database: deps.database,
    clock: deps.clock,
    logger: deps.logger,
    concurrency: deps.config.workerConcurrency,
    leaseMs: deps.config.jobLeaseMs,
    handlers: { [EXECUTION_JOB]: executionJobHandler(deps) },
  });
  const unlisten = deps.jobs.listen(() => worker.wake());
  const scheduler = createScheduler(deps);
  scheduler.start();
  return {
    stop: async () => {
      unlisten();
      await scheduler.stop();
      await worker.stop();
    },
  };
}
