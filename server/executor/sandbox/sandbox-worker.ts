// Entry of a sandbox thread (see sandbox-pool.ts): runs the jobs posted to it, one at a time.
import { parentPort } from "node:worker_threads";
import { executeJob } from "./execute-job.ts";
import { DEFAULT_SANDBOX_LIMITS } from "./limits.ts";
import { loadSandboxModule } from "./quickjs-module.ts";
import type { SandboxJob, ThreadMessage } from "./sandbox-job.ts";

const port = parentPort;
if (port === null) throw new Error("sandbox-worker.ts runs as a worker thread");

// Compiled before saying ready, so that the first run's time limit does not pay for it. A failed load
// is not cached: each run then tries again and reports the failure itself.
await loadSandboxModule(DEFAULT_SANDBOX_LIMITS.memoryBytes).catch(() => undefined);

port.on("message", (job: SandboxJob) => {
  void executeJob(job).then((reply) => port.postMessage({ kind: "reply", reply } satisfies ThreadMessage));
});
port.postMessage({ kind: "ready" } satisfies ThreadMessage);
