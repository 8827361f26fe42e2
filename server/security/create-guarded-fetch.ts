import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { GuardedFetch, GuardedRequestInit, GuardedResponse } from "./guarded-fetch.ts";
import { isPrivateAddress } from "./private-address.ts";
import { isSensitiveHeader } from "./sensitive-headers.ts";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;
/** Credentials meant for one origin must not follow a redirect to another. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "transfer-encoding"];

export type OutboundErrorKind =
  | "blocked"
  | "timeout"
  | "too_large"
  | "network"
  | "invalid_url"
  | "invalid_request"
  | "too_many_redirects";

/** Why an outbound request did not produce a response. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
    /** The system error code behind a `network` failure (e.g. ECONNREFUSED), when there is one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

export type GuardedFetchOptions = {
  allowPrivateNetwork: boolean;
  /**
   * Which connect addresses are refused. Default: every private address (see isPrivateAddress)
   * unless allowPrivateNetwork is set. Lets an installation (or a test) state its own policy.
   */
  isBlockedAddress?: (address: string) => boolean;
};

/**
 * The one way out: every resolved address of every hop is checked when the socket connects (so a
 * DNS answer cannot change between check and use), responses are capped in size, and every request
 * has a deadline. Private, loopback and link-local addresses are refused unless allowed.
 */
export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const isBlocked =
    options.isBlockedAddress ?? (options.allowPrivateNetwork ? () => false : (ip: string) => isPrivateAddress(ip));
  const lookup: LookupFunction = (hostname, opts, callback) => {
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || list.some((a) => isBlocked(a.address))) return callback(blocked(hostname), "", 4);
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
    let headers: Headers;
    try {
      headers = new Headers(init.headers);
    } catch (err) {
      throw new OutboundError("invalid_request", `Invalid request header: ${(err as Error).message}`);
    }
    const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    let method = (init.method ?? "GET").toUpperCase();
    let body = init.body;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new OutboundError("invalid_url", `Only http and https URLs are allowed, not ${url.protocol}`);
      }
      const host = url.hostname.replace(/^\[|\]$/g, "");
      // Literal IPs skip DNS (and so the lookup hook): check them here.
      if (isIP(host) && isBlocked(host)) throw blocked(host);
      const res = await send({ url, method, headers, body, deadline, timeoutMs, init, agent: agents[url.protocol] });
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location || init.redirect === "manual") return res;
      const next = nextHop(url, method, res.status, location);
      if (!next) throw new OutboundError("invalid_url", `Invalid redirect location: ${location}`);
      if (next.url.origin !== url.origin) {
        for (const name of [...headers.keys()]) if (isSensitiveHeader(name)) headers.delete(name);
      }
      if (next.method !== method) {
        body = undefined;
        for (const name of BODY_HEADERS) headers.delete(name);
      }
      url = next.url;
      method = next.method;
    }
    throw new OutboundError("too_many_redirects", `More than ${MAX_REDIRECTS} redirects`);
  };
}

/** Where a redirect leads and with which method (303, and 301/302 after POST, become GET as browsers do). */
export function nextHop(
  current: URL,
  method: string,
  status: number,
  location: string,
): { url: URL; method: string } | null {
  let url: URL;
  try {
    url = new URL(location, current);
  } catch {
    return null;
  }
  const toGet = (status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST");
  return { url, method: toGet ? "GET" : method };
}

function blocked(host: string): OutboundError {
  return new OutboundError(
    "blocked",
    `Requests to private or local addresses are not allowed (${host}); set ALLOW_PRIVATE_NETWORK=true to allow them`,
  );
}

const NETWORK_MESSAGES: Record<string, string> = {
  ECONNREFUSED: "Connection refused",
  ECONNRESET: "Connection reset",
  EPIPE: "Connection reset",
  ENOTFOUND: "Host not found",
  EAI_AGAIN: "Host name lookup failed",
  ETIMEDOUT: "Connection timed out",
  EHOSTUNREACH: "Host unreachable",
  ENETUNREACH: "Network unreachable",
};

function toOutboundError(err: unknown, host: string): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && code.startsWith("ERR_INVALID")) {
    return new OutboundError("invalid_request", `Invalid request: ${(err as Error).message}`);
  }
  if (typeof code === "string" && NETWORK_MESSAGES[code]) {
    const suffix = code === "ENOTFOUND" || code === "EAI_AGAIN" ? ` (${host})` : "";
    return new OutboundError("network", `${NETWORK_MESSAGES[code]}${suffix}`, code);
  }
  const message = err instanceof Error && err.message ? err.message : "Connection failed";
  return new OutboundError("network", message, typeof code === "string" ? code : undefined);
}

type Attempt = {
  url: URL;
  method: string;
  headers: Headers;
  body: GuardedRequestInit["body"];
  deadline: number;
  timeoutMs: number;
  init: GuardedRequestInit;
  agent: http.Agent;
};

function send(a: Attempt): Promise<GuardedResponse> {
  const maxBytes = a.init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const signal = a.init.signal;
  return new Promise<GuardedResponse>((resolve, reject) => {
    let req: http.ClientRequest | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const onAbort = () => fail(new OutboundError("timeout", "The request was aborted"));
    const finish = () => {
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      finish();
      req?.destroy();
      reject(toOutboundError(err, a.url.hostname));
    };
    const remaining = a.deadline - Date.now();
    if (remaining <= 0) return fail(timedOut(a.timeoutMs));
    if (signal?.aborted) return onAbort();
    timer = setTimeout(() => fail(timedOut(a.timeoutMs)), remaining);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const payload = a.body === undefined || a.body === null ? undefined : toBuffer(a.body);
      const outgoing: Record<string, string> = {};
      a.headers.forEach((v, k) => {
        outgoing[k] = v;
      });
      if (payload && !a.headers.has("content-length")) outgoing["content-length"] = String(payload.byteLength);
      const lib = a.url.protocol === "https:" ? https : http;
      req = lib.request(a.url, { method: a.method, headers: outgoing, agent: a.agent }, (res) => {
        const declared = Number(res.headers["content-length"]);
        if (declared > maxBytes) return fail(tooLarge(maxBytes));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxBytes) return fail(tooLarge(maxBytes));
          chunks.push(chunk);
        });
        res.on("error", fail);
        res.on("end", () => {
          if (settled) return;
          finish();
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === undefined) continue;
            for (const item of Array.isArray(v) ? v : [v]) responseHeaders.append(k, item);
          }
          const bytes = new Uint8Array(Buffer.concat(chunks));
          resolve({
            status: res.statusCode ?? 0,
            headers: responseHeaders,
            url: a.url.toString(),
            body: bytes,
            text: () => new TextDecoder().decode(bytes),
          });
        });
      });
      req.on("error", fail);
      if (payload) req.write(payload);
      req.end();
    } catch (err) {
      fail(err);
    }
  });
}

function timedOut(timeoutMs: number): OutboundError {
  return new OutboundError("timeout", `Request timed out after ${timeoutMs} ms`);
}

function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError("too_large", `The response is larger than ${maxBytes} bytes`);
}

function toBuffer(body: NonNullable<GuardedRequestInit["body"]>): Buffer {
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  throw new OutboundError("invalid_request", "Unsupported request body type");
}
