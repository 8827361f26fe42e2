import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../../server/clock.ts";
import type { Block, ExecutorDeps, WorkflowState } from "../../../server/executor/types.ts";
import type { Logger } from "../../../server/logger.ts";
import { createGuardedFetch } from "../../../server/security/create-guarded-fetch.ts";
import type { GuardedFetch } from "../../../server/security/guarded-fetch.ts";

export type ReceivedRequest = {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
};

export type Receiver = {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** How the next requests are answered; `n` counts requests from 0. */
  reply(handler: (req: ReceivedRequest, res: ServerResponse, n: number) => void): void;
  close(): Promise<void>;
};

/** A real HTTP server on 127.0.0.1:0 (or another loopback address) that records every request it receives. */
export async function startReceiver(host = "127.0.0.1"): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let handler: (req: ReceivedRequest, res: ServerResponse, n: number) => void = (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const parsed = new URL(req.url ?? "/", "http://receiver");
      const received: ReceivedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(received);
      handler(received, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    reply: (h) => {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens: bound, then closed. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type TestDeps = { deps: ExecutorDeps; clock: ManualClock; sleeps: number[]; logs: string[] };

const sharedFetch = createGuardedFetch({ allowPrivateNetwork: true });

/**
 * Executor deps for tests: the real guarded fetch (private network allowed, to reach the local
 * receiver), a manual clock, and a sleep that records each delay and moves the clock instead of waiting.
 */
export function testDeps(options: { random?: number; fetch?: GuardedFetch } = {}): TestDeps {
  const clock = new ManualClock();
  const sleeps: number[] = [];
  const logs: string[] = [];
  const record = (msg: string, fields?: Record<string, unknown>) => logs.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  const logger: Logger = { debug: record, info: record, warn: record, error: record };
  const deps: ExecutorDeps = {
    fetch: options.fetch ?? sharedFetch,
    clock,
    logger,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
    random: () => options.random ?? 0,
  };
  return { deps, clock, sleeps, logs };
}

/** A state whose blocks run one after the other in the order given. */
export function chain(...blocks: Array<[string, Block]>): WorkflowState {
  const edges = blocks.slice(1).map(([id], i) => ({ id: `e${i + 1}`, source: blocks[i][0], target: id }));
  return { blocks: Object.fromEntries(blocks), edges, loops: {}, parallels: {} };
}

export const start = (): [string, Block] => ["start", { type: "start", name: "Start" }];
export const api = (params: Record<string, unknown>, name = "API", id = "api"): [string, Block] => [
  id,
  { type: "api", name, params },
];
export const response = (params: Record<string, unknown>, id = "response"): [string, Block] => [
  id,
  { type: "response", name: "Response", params },
];
