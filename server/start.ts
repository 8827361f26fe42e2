import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createApp, createHealthApp } from "./app.ts";
import { resolveAdminKey } from "./bootstrap.ts";
import { type Clock, systemClock } from "./clock.ts";
import { type Config, loadConfig } from "./config.ts";
import type { AppDeps } from "./context.ts";
import { migrateDatabase, openDatabase } from "./db/client.ts";
import { GroupCommitter } from "./db/group-commit.ts";
import { createModelGateway } from "./executor/providers/create-model-gateway.ts";
import { closeSandbox, configureSandbox } from "./executor/sandbox/index.ts";
import { newId } from "./ids.ts";
import { loadLicense } from "./limits/license.ts";
import { TokenReserves } from "./limits/token-reserve.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createGuardedFetch } from "./security/create-guarded-fetch.ts";
import { resolveEncryptionKey } from "./security/resolve-encryption-key.ts";
import { createSecretBox } from "./security/secret-box.ts";
import { closeInterruptedRuns } from "./services/executions/close-interrupted-runs.ts";
import { JobWaker } from "./workers/job-waker.ts";
import { holdProcessLease } from "./workers/process-lease.ts";
import { startWorkers } from "./workers/start-workers.ts";

export type StartOptions = {
  env: Record<string, string | undefined>;
  clock?: Clock;
  logger?: Logger;
  /** Print the first-start banner (admin key, URLs) to stdout. */
  banner?: boolean;
  /** Close runs a previous process left `running` (false in cluster workers: the primary does it). */
  closeInterruptedRuns?: boolean;
  /** Run the job worker in this process; default: unless ROLE=api. */
  workers?: boolean;
};

export type RunningServer = { url: string; deps: AppDeps; close(): Promise<void> };

/** Opens and migrates the database and builds every long-lived service once. */
export async function buildDeps(options: Omit<StartOptions, "banner">): Promise<{
  deps: AppDeps;
  admin: Awaited<ReturnType<typeof resolveAdminKey>>;
}> {
  const config: Config = loadConfig(options.env);
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const database = await openDatabase(config.databaseUrl, config.databaseAuthToken);
  await migrateDatabase(database);
  const admin = await resolveAdminKey(config, database);
  const fetch = createGuardedFetch({ allowPrivateNetwork: config.allowPrivateNetwork });
  const deps: AppDeps = {
    config: { ...config, adminApiKey: admin.key },
    database,
    db: database.db,
    clock,
    logger,
    license: loadLicense(config, logger, clock.now()),
    tokens: new TokenReserves(),
    jobs: new JobWaker(),
    processId: newId("proc"),
    writes: new GroupCommitter(database),
    fetch,
    models: createModelGateway({ fetch, config, clock, logger }),
    secrets: createSecretBox(resolveEncryptionKey(config, logger).key),
  };
  return { deps, admin };
}

/** Builds every service once, migrates the database and starts listening. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { deps, admin } = await buildDeps(options);
  const { config, logger, database } = deps;
  configureSandbox({ threads: config.sandboxThreads });
  const releaseProcessLease = await holdProcessLease(deps);
  if (options.closeInterruptedRuns !== false) await closeInterruptedRuns({ ctx: deps, before: deps.clock.now() });
  // ROLE=worker keeps the port for GET /api/health only (liveness probes), not the API.
  const app = config.role === "worker" ? createHealthApp(deps) : createApp(deps);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => resolve());
    server.once("error", reject);
  });
  const address = server.address() as AddressInfo;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  if (options.banner) printBanner(url, admin, config);
  logger.info("listening", { url, plan: deps.license.plan, role: config.role });
  const workers = (options.workers ?? config.role !== "api") ? startWorkers(deps) : undefined;
  return {
    url,
    deps,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await workers?.stop();
      await closeSandbox();
      await releaseProcessLease();
      database.close();
    },
  };
}

export function printBanner(url: string, admin: Awaited<ReturnType<typeof resolveAdminKey>>, config: Config) {
  const lines = [
    "",
    `Workflow service is running at ${url}`,
    `  Admin UI:      ${url}/`,
    `  OpenAPI:       ${url}/openapi.json`,
    `  Health:        ${url}/api/health`,
    `  Database:      ${config.databaseUrl}`,
  ];
  if (admin.origin === "generated") {
    lines.push(
      "",
      "First start: an admin API key was generated for you (shown only this once):",
      `  ${admin.key}`,
      `  stored in ${admin.file} (set ADMIN_API_KEY to use your own).`,
      `  Try: curl -H "x-admin-key: ${admin.key}" ${url}/api/v1/admin/users`,
    );
  } else if (admin.origin === "file") {
    lines.push(`  Admin API key: in ${admin.file}`);
  } else if (admin.origin === "none") {
    lines.push("  Admin API:     disabled (set ADMIN_API_KEY to enable it)");
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
}
