import type { AppDeps } from "../context.ts";
import { acquireLease, releaseLease } from "./acquire-lease.ts";

/** How long a process counts as alive after its last renewal (renewed every third of it). */
export const PROCESS_LEASE_MS = 60_000;

export const processLeaseName = (processId: string) => `process:${processId}`;

/**
 * Keeps this process's `process:<id>` lease alive while it runs: the runs it executes carry its id,
 * and another process closes them as interrupted only once the lease has expired (the process died
 * without finishing them). Released on a clean stop.
 */
export async function holdProcessLease(deps: Pick<AppDeps, "database" | "clock" | "logger" | "processId">): Promise<() => Promise<void>> {
  const name = processLeaseName(deps.processId);
  const renew = () => acquireLease(deps.database, name, deps.processId, deps.clock.now(), PROCESS_LEASE_MS);
  await renew();
  let failures = 0;
  const timer = setInterval(() => {
    renew().then(
      () => {
        failures = 0;
      },
      (error: unknown) => {
        failures++;
        // Two misses in a row leave a third of the lease: soon other processes take this one's
        // runs as interrupted.
        const log = failures >= 2 ? deps.logger.error : deps.logger.warn;
        log("could not renew the process lease", { error: String(error), failures });
      },
    );
  }, PROCESS_LEASE_MS / 3);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await releaseLease(deps.database, name, deps.processId).catch(() => undefined);
  };
}
