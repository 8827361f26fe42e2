// Entry for `npm start` (Node) and `npm run start:deno` (Deno): the same file on both.
import cluster from "node:cluster";
import process from "node:process";
import { runPrimary } from "./cluster.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { LicenseError } from "./limits/license.ts";
import { startServer } from "./start.ts";

const isDeno = "Deno" in globalThis;

try {
  const config = loadConfig(process.env);
  if (isDeno && config.workers > 1) process.stderr.write("WORKERS is ignored under Deno: running one process\n");
  let stop: () => Promise<void>;
  if (config.workers > 1 && !isDeno && cluster.isPrimary) {
    stop = await runPrimary(config);
  } else {
    const running = await startServer({ env: process.env, banner: cluster.isPrimary, closeInterruptedRuns: cluster.isPrimary });
    stop = running.close;
  }
  const shutdown = async () => {
    await stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
} catch (error) {
  if (error instanceof ConfigError || error instanceof LicenseError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
