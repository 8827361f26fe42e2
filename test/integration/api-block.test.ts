import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { type ReceivedRequest, type Receiver, startReceiver } from "../helpers/receiver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

type Route = (req: ReceivedRequest, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

describe("the HTTP request (api) block, end to end", () => {
  let server: TestServer;
  let tenant: Tenant;
  let external: Receiver;
  let seen: ReceivedRequest[];
  const routes = new Map<string, Route>();

  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": tenant.apiKey, ...init.headers } });

  /** Creates and deploys start -> blocks (in order) -> a response returning `data`, then runs it. */
  async function run(blocks: Record<string, { name: string; params: Record<string, unknown> }>, data: unknown, input: unknown = {}) {
    const ids = Object.keys(blocks);
    const state = {
      blocks: {
        start: { type: "start", name: "Start" },
        ...Object.fromEntries(ids.map((id) => [id, { type: "api", ...blocks[id] }])),
        respond: { type: "response", name: "Respond", params: { data } },
      },
      edges: ["start", ...ids, "respond"].slice(1).map((target, i, all) => ({ source: i === 0 ? "start" : all[i - 1], target })),
    };
    const created = await call("/api/workflows", { method: "POST", json: { workspaceId: tenant.workspaceId, name: "Api", state } });
    expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
    const id = (await created.json()).data.id;
    await call(`/api/workflows/${id}/deploy`, { method: "POST" });
    const res = await call(`/api/workflows/${id}/execute`, { method: "POST", json: input });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    external = await startReceiver();
    seen = external.requests;
    external.reply((request, res) => {
      const route = routes.get(request.path.split("/")[1] ?? "");
      if (route) route(request, res);
      else json(res, 200, { method: request.method, path: request.path });
    });
    server = await startTestServer();
    tenant = await createTenant(server);
  });
  afterAll(async () => {
    await server.close();
    await external.close();
  });
  beforeEach(() => {
    seen.length = 0;
    routes.clear();
  });

  it("sends each method, with a body only for POST, PUT and PATCH", async () => {
    for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH"]) {
      seen.length = 0;
      const { status, body } = await run(
        { call: { name: "Call", params: { url: `${external.url}/echo`, method, body: { sent: true }, retries: 0 } } },
        "<call.data>",
      );
      expect(status, method).toBe(200);
      expect(body.output).toEqual({ method, path: "/echo" });
      expect(seen).toHaveLength(1);
      const hasBody = method === "POST" || method === "PUT" || method === "PATCH";
      expect(seen[0].body, method).toBe(hasBody ? JSON.stringify({ sent: true }) : "");
      if (hasBody) expect(seen[0].headers["content-type"]).toBe("application/json");
    }
  });

  it("appends query parameters, sends headers and fills path parameters from references", async () => {
    const { status } = await run(
      {
        call: {
          name: "Call",
          params: {
            url: `${external.url}/items/{itemId}`,
            pathParams: { itemId: "<start.itemId>" },
            query: { q: "a b&c", tag: ["x", "y"], page: "<start.page>" },
            headers: [
              { key: "Authorization", value: "Bearer <start.token>" },
              { key: "X-Trace", value: "t-1" },
            ],
          },
        },
      },
      "<call.status>",
      { itemId: "a/b", page: 3, token: "tok123" },
    );
    expect(status).toBe(200);
    const [req] = seen;
    expect(req.path).toBe("/items/a%2Fb");
    expect(req.query.get("q")).toBe("a b&c");
    expect(req.query.getAll("tag")).toEqual(["x", "y"]);
    expect(req.query.get("page")).toBe("3");
    expect(req.headers.authorization).toBe("Bearer tok123");
    expect(req.headers["x-trace"]).toBe("t-1");
  });

  it("feeds one block's output into the next block's URL and body", async () => {
    routes.set("users", (req, res) => json(res, 200, { id: req.path.split("/")[2], name: "Ada", team: "core" }));
    routes.set("greetings", (req, res) => json(res, 201, { received: JSON.parse(req.body) }, { "x-greeting-id": "g-9" }));
    const { status, body } = await run(
      {
        user: { name: "User", params: { url: `${external.url}/users/<start.userId>` } },
        greet: {
          name: "Greet",
          params: {
            url: `${external.url}/greetings`,
            method: "POST",
            body: { to: "<user.data.name>", text: "Hello <user.data.name> of <user.data.team>", profile: "<user.data>" },
          },
        },
      },
      { greeting: "<greet.data.received>", status: "<greet.status>", id: "<greet.headers.x-greeting-id>" },
      { userId: "u-5" },
    );
    expect(status).toBe(200);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["GET /users/u-5", "POST /greetings"]);
    expect(body.output).toEqual({
      greeting: { to: "Ada", text: "Hello Ada of core", profile: { id: "u-5", name: "Ada", team: "core" } },
      status: 201,
      id: "g-9",
    });
  });

  it("retries a 503 and succeeds on the next attempt (default backoff)", async () => {
    let calls = 0;
    routes.set("flaky", (_req, res) => (++calls === 1 ? json(res, 503, { busy: true }) : json(res, 200, { ok: calls })));
    const { status, body } = await run({ call: { name: "Call", params: { url: `${external.url}/flaky`, retries: 2 } } }, "<call.data>");
    expect(status).toBe(200);
    expect(body.output).toEqual({ ok: 2 });
    expect(seen).toHaveLength(2);
  });

  it("does not retry a 400; the run fails with the status in the error", async () => {
    routes.set("bad", (_req, res) => json(res, 400, { error: "bad input" }));
    const { status, body } = await run({ call: { name: "Call", params: { url: `${external.url}/bad`, retries: 3 } } }, "<call.data>");
    expect(seen).toHaveLength(1);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(body.success).toBe(false);
    expect(body.error).toContain("400");
  });

  it("reports a 4xx in <api.error> and <api.status> and goes on with continueOnError", async () => {
    routes.set("gone", (_req, res) => json(res, 404, { error: "gone" }));
    const { status, body } = await run(
      { call: { name: "Call", params: { url: `${external.url}/gone`, continueOnError: true } } },
      { status: "<call.status>", error: "<call.error>", data: "<call.data>" },
    );
    expect(status).toBe(200);
    expect(body.output).toEqual({ status: 404, error: expect.stringContaining("404"), data: { error: "gone" } });
  });

  it("times out against a server that never answers", async () => {
    routes.set("hang", () => undefined);
    const { status, body } = await run(
      { call: { name: "Call", params: { url: `${external.url}/hang`, timeoutMs: 100, retries: 0 } } },
      "<call.data>",
    );
    expect(seen).toHaveLength(1);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/100 ms|timed out/i);
  });
});
