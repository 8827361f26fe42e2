import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "../../server/clock.ts";
import type { Logger } from "../../server/logger.ts";
import { type RunningServer, startServer } from "../../server/start.ts";

export const TEST_ADMIN_KEY = "test-admin-key-0123456789abcdef";

export type TestServer = RunningServer & {
  dataDir: string;
  /** fetch relative to the server, JSON in and out. */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  admin(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
};

/** A real server on 127.0.0.1:0 over a fresh libSQL file of its own. */
export async function startTestServer(
  options: { env?: Record<string, string | undefined>; clock?: Clock; logger?: Logger; workers?: boolean } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "wf-test-"));
  const running = await startServer({
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      LOG_LEVEL: "silent",
      ALLOW_PRIVATE_NETWORK: "true",
      ...options.env,
    },
    clock: options.clock,
    logger: options.logger,
    workers: options.workers,
  });
  const request = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    return fetch(`${running.url}${path}`, { ...init, headers, body });
  };
  return {
    ...running,
    dataDir,
    request,
    admin: (path, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set("x-admin-key", TEST_ADMIN_KEY);
      return request(path, { ...init, headers });
    },
    close: async () => {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
