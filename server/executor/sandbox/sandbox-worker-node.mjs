// Entry of a sandbox thread under Node: a worker thread does not inherit the main thread's loader
// hooks, so it registers tsx itself before loading the TypeScript entry. Deno loads the .ts directly.
import { register } from "tsx/esm/api";

register();
await import("./sandbox-worker.ts");
