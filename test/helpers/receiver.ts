import { afterAll, beforeAll, beforeEach } from "vitest";
import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

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

/**
 * A receiver for a whole test file: started before all tests, closed after, its request log cleared
 * and `reply` (when given) reinstalled before each test. Read it through the returned getter.
 */
export function useReceiver(reply?: Parameters<Receiver["reply"]>[0]): () => Receiver {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    receiver.requests.length = 0;
    if (reply) receiver.reply(reply);
  });
  return () => receiver;
}
