import cluster from "node:cluster";
import process from "node:process";
import type { AddressInfo } from "node:net";
import { resolveAdminKey } from "./bootstrap.ts";
import type { Config } from "./config.ts";
import { migrateDatabase, openDatabase } from "./db/client.ts";
import { printBanner } from "./start.ts";
import { systemClock } from "./clock.ts";
import { loadLicense } from "./limits/license.ts";
import { createLogger } from "./logger.ts";
import { closeInterruptedRuns } from "./services/executions/close-interrupted-runs.ts";

/**
 * Primary of a multi-process server (WORKERS > 1, Node only): migrates the database and settles the
 * admin key once, then forks the workers, which share the port and the database. A worker that dies
 * is replaced. Returns a stop function.
 */
export async function runPrimary(config: Config): Promise<() => Promise<void>> {
  const logger = createLogger(config.logLevel);
  // A bad license stops the start here, once, instead of crashing every worker in a loop.
  loadLicense(config, logger, systemClock.now());
  const database = await openDatabase(config.databaseUrl, config.databaseAuthToken);
  await migrateDatabase(database);
  const admin = await resolveAdminKey(config, database);
  await closeInterruptedRuns({ ctx: { db: database.db, clock: systemClock, logger }, before: systemClock.now() });
  database.close();

  let stopping = false;
  let announced = false;
  // Workers find a generated admin key in the data dir; hand it over explicitly all the same.
  const env = admin.key ? { ADMIN_API_KEY: admin.key } : {};
  const fork = () => cluster.fork(env);
  cluster.on("listening", (_worker, address: AddressInfo) => {
    if (announced) return;
    announced = true;
    const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
    printBanner(`http://${host.includes(":") ? `[${host}]` : host}:${address.port}`, admin, config);
  });
  cluster.on("exit", (worker, code) => {
    if (stopping) return;
    process.stderr.write(`worker ${worker.process.pid} exited with ${code}; starting another\n`);
    fork();
  });
  for (let i = 0; i < config.workers; i++) fork();

  return async () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (!w || w.isDead()) return resolve();
            w.once("exit", () => resolve());
            w.kill("SIGTERM");
          }),
      ),
    );
  };
}
