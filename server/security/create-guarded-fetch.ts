import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { GuardedFetch, GuardedRequestInit, GuardedResponse } from "./guarded-fetch.ts";
import { isPrivateAddress } from "./private-address.ts";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/** Why an outbound request did not produce a response. */
export class OutboundError extends Error {
  constructor(
    readonly kind: "blocked" | "timeout" | "too_large" | "network" | "invalid_url" | "too_many_redirects",
    message: string,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

/**
 * The one way out: every resolved address of every hop is checked when the socket connects (so a
 * DNS answer cannot change between check and use), responses are capped in size, and every request
 * has a deadline. Private, loopback and link-local addresses are refused unless allowed.
 */
export function createGuardedFetch(options: { allowPrivateNetwork: boolean }): GuardedFetch {
  const lookup: LookupFunction = (hostname, opts, callback) => {
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => !options.allowPrivateNetwork && isPrivateAddress(a.address));
      if (bad) return callback(blocked(hostname), "", 4);
      if ((opts as { all?: boolean }).all) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 256, lookup } as http.AgentOptions),
    "https:": new https.Agent({ keepAlive: true, maxSockets: 256, lookup } as https.AgentOptions),
  };

  return async function guardedFetch(input, init = {}) {
    let url: URL;
    try {
      url = new URL(String(input));
    } catch {
      throw new OutboundError("invalid_url", `Invalid URL: ${String(input)}`);
    }
    const deadline = Date.now() + (init.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let method = (init.method ?? "GET").toUpperCase();
    let body = init.body;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new OutboundError("invalid_url", `Only http and https URLs are allowed, not ${url.protocol}`);
      }
      const host = url.hostname.replace(/^\[|\]$/g, "");
      // Literal IPs skip DNS (and so the lookup hook): check them here.
      if (isIP(host) && !options.allowPrivateNetwork && isPrivateAddress(host)) throw blocked(host);
      const res = await send(url, method, init, body, deadline, agents[url.protocol]);
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location && init.redirect !== "manual") {
        url = new URL(location, url);
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
        }
        continue;
      }
      return res;
    }
    throw new OutboundError("too_many_redirects", `More than ${MAX_REDIRECTS} redirects`);
  };
}

function blocked(host: string): OutboundError {
  return new OutboundError(
    "blocked",
    `Requests to private or local addresses are not allowed (${host}); set ALLOW_PRIVATE_NETWORK=true to allow them`,
  );
}

function send(
  url: URL,
  method: string,
  init: GuardedRequestInit,
  body: GuardedRequestInit["body"],
  deadline: number,
  agent: http.Agent,
): Promise<GuardedResponse> {
  const maxBytes = init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const headers = new Headers(init.headers);
  const payload = body === undefined || body === null ? undefined : toBuffer(body);
  if (payload && !headers.has("content-length")) headers.set("content-length", String(payload.byteLength));
  const outgoing: Record<string, string> = {};
  headers.forEach((v, k) => {
    outgoing[k] = v;
  });
  const lib = url.protocol === "https:" ? https : http;
  return new Promise<GuardedResponse>((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new OutboundError("timeout", "The request timed out"));
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err instanceof OutboundError ? err : new OutboundError("network", err.message || "Connection failed"));
    };
    const timer = setTimeout(
      () => fail(new OutboundError("timeout", `No complete response within ${init.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)),
      remaining,
    );
    const req = lib.request(url, { method, headers: outgoing, agent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBytes) return fail(new OutboundError("too_large", `The response is larger than ${maxBytes} bytes`));
        chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const responseHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined) continue;
          for (const item of Array.isArray(v) ? v : [v]) responseHeaders.append(k, item);
        }
        const bytes = new Uint8Array(Buffer.concat(chunks));
        resolve({
          status: res.statusCode ?? 0,
          headers: responseHeaders,
          url: url.toString(),
          body: bytes,
          text: () => new TextDecoder().decode(bytes),
        });
      });
    });
    req.on("error", fail);
    init.signal?.addEventListener("abort", () => fail(new OutboundError("timeout", "The request was aborted")), { once: true });
    if (payload) req.write(payload);
    req.end();
  });
}

function toBuffer(body: NonNullable<GuardedRequestInit["body"]>): Buffer {
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  throw new OutboundError("invalid_url", "Unsupported request body type");
}
