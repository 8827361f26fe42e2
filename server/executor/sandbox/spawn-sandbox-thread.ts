import { Worker } from "node:worker_threads";

const isDeno = "Deno" in globalThis;
const ENTRY = new URL(isDeno ? "./sandbox-worker.ts" : "./sandbox-worker-node.mjs", import.meta.url);

/** Starts one sandbox thread (the pool unrefs it once it listens to it). */
export function spawnSandboxThread(): Worker {
  return new Worker(ENTRY, { name: "sandbox" });
}
