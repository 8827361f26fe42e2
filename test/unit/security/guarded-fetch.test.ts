import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGuardedFetch, nextHop, OutboundError } from "../../../server/security/create-guarded-fetch.ts";
import { closedPort, type Receiver, startReceiver } from "../executor/helpers.ts";

const open = createGuardedFetch({ allowPrivateNetwork: true });
const closed = createGuardedFetch({ allowPrivateNetwork: false });

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

let a: Receiver;
let b: Receiver;
beforeAll(async () => {
  a = await startReceiver();
  b = await startReceiver();
});
afterAll(async () => {
  await a.close();
  await b.close();
});
beforeEach(() => {
  for (const r of [a, b]) {
    r.requests.length = 0;
    r.reply((req, res) => res.end(`hello from ${req.path}`));
  }
});

describe("guarded fetch: private network", () => {
  it("refuses a literal loopback IP when private addresses are not allowed", async () => {
    const err = await failure(closed(`${a.url}/x`));
    expect(err.kind).toBe("blocked");
    expect(err.message).toContain("private or local addresses are not allowed (127.0.0.1)");
    expect(a.requests).toHaveLength(0);
  });

  it("refuses a host name that resolves to loopback", async () => {
    const err = await failure(closed(`http://localhost:${a.port}/x`));
    expect(err.kind).toBe("blocked");
    expect(err.message).toContain("(localhost)");
    expect(a.requests).toHaveLength(0);
  });

  it.each(["http://[::1]:9/", "http://[::ffff:127.0.0.1]:9/", "http://2130706433:9/", "http://0x7f.1:9/", "http://169.254.169.254/latest/meta-data"])(
    "refuses %s before connecting",
    async (url) => {
      expect((await failure(closed(url))).kind).toBe("blocked");
    },
  );

  it("allows private addresses with allowPrivateNetwork", async () => {
    a.reply((req, res) => {
      res.writeHead(201, { "x-echo": String(req.headers["x-in"]) });
      res.end(`${req.method} ${req.body}`);
    });
    const res = await open(`http://localhost:${a.port}/ok`, { method: "post", headers: { "x-in": "1" }, body: "payload" });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-echo")).toBe("1");
    expect(res.text()).toBe("POST payload");
    expect(a.requests[0].headers["content-length"]).toBe("7");
  });
});

describe("guarded fetch: limits", () => {
  it("times out when no complete answer arrives in time", async () => {
    a.reply(() => {});
    const err = await failure(open(`${a.url}/slow`, { timeoutMs: 50 }));
    expect(err.kind).toBe("timeout");
    expect(err.message).toBe("Request timed out after 50 ms");
  });

  it("refuses a response larger than the cap, declared or streamed", async () => {
    a.reply((req, res) => {
      if (req.path === "/declared") {
        res.setHeader("content-length", "1000");
        res.end("x".repeat(1000));
        return;
      }
      res.write("x".repeat(60));
      res.end("y".repeat(60)); // chunked, no content-length
    });
    expect((await failure(open(`${a.url}/declared`, { maxResponseBytes: 100 }))).kind).toBe("too_large");
    expect((await failure(open(`${a.url}/streamed`, { maxResponseBytes: 100 }))).kind).toBe("too_large");
    expect((await open(`${a.url}/streamed`, { maxResponseBytes: 120 })).body.byteLength).toBe(120);
  });

  it("says Connection refused when nothing listens", async () => {
    const port = await closedPort();
    const err = await failure(open(`http://127.0.0.1:${port}/`));
    expect(err).toMatchObject({ kind: "network", code: "ECONNREFUSED", message: "Connection refused" });
  });

  it("refuses URLs that are not http(s) and invalid headers", async () => {
    expect((await failure(open("not a url"))).kind).toBe("invalid_url");
    expect((await failure(open("file:///etc/passwd"))).kind).toBe("invalid_url");
    expect((await failure(open(`${a.url}/`, { headers: { "x-bad": "a\r\nb" } }))).kind).toBe("invalid_request");
  });
});

describe("guarded fetch: redirects", () => {
  it("follows redirects and answers with the final response", async () => {
    a.reply((req, res) => {
      if (req.path === "/from") {
        res.writeHead(302, { location: "/to" });
        res.end();
      } else res.end(`final ${req.path}`);
    });
    const res = await open(`${a.url}/from`);
    expect(res.status).toBe(200);
    expect(res.text()).toBe("final /to");
    expect(res.url).toBe(`${a.url}/to`);
  });

  it("turns POST into GET without body on 303, and keeps the method on 307", async () => {
    a.reply((req, res) => {
      if (req.path === "/see-other") res.writeHead(303, { location: "/next" }).end();
      else if (req.path === "/temporary") res.writeHead(307, { location: "/next" }).end();
      else res.end(`${req.method} ${req.body} ${req.headers["content-type"] ?? "-"}`);
    });
    const init = { method: "POST", body: '{"a":1}', headers: { "content-type": "application/json" } };
    expect((await open(`${a.url}/see-other`, init)).text()).toBe("GET  -");
    expect((await open(`${a.url}/temporary`, init)).text()).toBe('POST {"a":1} application/json');
  });

  it("drops credentials when a redirect leaves the origin", async () => {
    a.reply((req, res) => {
      if (req.path === "/same") res.writeHead(302, { location: "/landing" }).end();
      else if (req.path === "/away") res.writeHead(302, { location: `${b.url}/landing` }).end();
      else res.end();
    });
    const headers = { authorization: "Bearer t", cookie: "c=1", "x-api-key": "k", "x-auth-token": "t", "x-other": "kept" };
    await open(`${a.url}/same`, { headers });
    expect(a.requests[1].headers).toMatchObject({ authorization: "Bearer t", cookie: "c=1" });
    await open(`${a.url}/away`, { headers });
    expect(b.requests[0].headers.authorization).toBeUndefined();
    expect(b.requests[0].headers.cookie).toBeUndefined();
    expect(b.requests[0].headers["x-api-key"]).toBeUndefined();
    expect(b.requests[0].headers["x-auth-token"]).toBeUndefined();
    expect(b.requests[0].headers["x-other"]).toBe("kept");
  });

  it("stops after 5 redirects", async () => {
    a.reply((_req, res) => res.writeHead(302, { location: "/again" }).end());
    expect((await failure(open(`${a.url}/loop`))).kind).toBe("too_many_redirects");
    expect(a.requests).toHaveLength(6);
  });

  it("returns the redirect itself with redirect: manual", async () => {
    a.reply((_req, res) => res.writeHead(301, { location: "/elsewhere" }).end());
    const res = await open(`${a.url}/m`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(a.requests).toHaveLength(1);
  });

  describe("checks every hop against the address policy", () => {
    // Only loopback servers are reachable here, so the policy refuses 127.0.0.1 and ::1 and allows
    // 127.0.0.2: a redirect from the allowed server to a refused address must not be followed.
    const onlyDotTwo = createGuardedFetch({
      allowPrivateNetwork: false,
      isBlockedAddress: (ip) => ip === "127.0.0.1" || ip === "::1",
    });
    let allowed: Receiver;
    beforeAll(async () => {
      allowed = await startReceiver("127.0.0.2");
    });
    afterAll(() => allowed.close());

    it("follows a redirect between allowed addresses", async () => {
      allowed.reply((req, res) => (req.path === "/hop" ? res.writeHead(302, { location: "/here" }).end() : res.end("here")));
      expect((await onlyDotTwo(`${allowed.url}/hop`)).text()).toBe("here");
    });

    it.each([
      ["a literal refused IP", (port: number) => `http://127.0.0.1:${port}/target`],
      ["a host name resolving to a refused IP", (port: number) => `http://localhost:${port}/target`],
    ])("refuses a redirect to %s", async (_what, target) => {
      allowed.reply((_req, res) => res.writeHead(302, { location: target(a.port) }).end());
      const err = await failure(onlyDotTwo(`${allowed.url}/hop`));
      expect(err.kind).toBe("blocked");
      expect(allowed.requests.length).toBeGreaterThan(0);
      expect(a.requests).toHaveLength(0);
    });
  });

  it("decides the next hop of a redirect", () => {
    const here = new URL("https://api.example.com/v1/items?x=1");
    expect(nextHop(here, "POST", 303, "/done")).toEqual({ url: new URL("https://api.example.com/done"), method: "GET" });
    expect(nextHop(here, "POST", 302, "other")?.method).toBe("GET");
    expect(nextHop(here, "PUT", 302, "other")).toEqual({ url: new URL("https://api.example.com/v1/other"), method: "PUT" });
    expect(nextHop(here, "POST", 308, "http://10.0.0.1/")?.url.hostname).toBe("10.0.0.1");
    expect(nextHop(here, "GET", 302, "http://[::1")).toBeNull();
  });
});
