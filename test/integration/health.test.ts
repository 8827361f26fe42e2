import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("GET /api/health", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers 200 {status:ok} when the database answers", async () => {
    const res = await server.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers 503 in the error envelope when the database is gone", async () => {
    const other = await startTestServer();
    other.deps.database.close();
    const res = await other.request("/api/health");
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({ code: "UNAVAILABLE", error: expect.any(String), requestId: expect.any(String) });
    await other.close().catch(() => undefined);
  });

  it("logs an internal failure with the request id it answered with, and hides its cause", async () => {
    const lines: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
    const record = (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, fields });
    const broken = await startTestServer({ logger: { debug: record, info: record, warn: record, error: record } });
    broken.deps.database.close();
    for (const path of ["/api/v1/admin/users", `/trpc/admin.listUsers?input=${encodeURIComponent("{}")}`]) {
      const res = await broken.admin(path);
      expect(res.status, path).toBe(500);
      const text = await res.text();
      expect(text).not.toMatch(/closed|stack|at .*\.ts/i);
      const requestId = res.headers.get("x-request-id");
      expect(lines.some((l) => l.msg === "request failed" && l.fields?.requestId === requestId), path).toBe(true);
    }
    await broken.close().catch(() => undefined);
  });

  it("answers unknown routes with 404 in the error envelope", async () => {
    const res = await server.request("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND", requestId: expect.any(String) });
  });

  it("echoes a well-formed x-request-id", async () => {
    const res = await server.request("/api/nope", { headers: { "x-request-id": "abc-123" } });
    expect((await res.json()).requestId).toBe("abc-123");
  });

  it("answers a malformed percent-encoded path with 404, not 500", async () => {
    for (const path of ["/%ZZ", "/%E0%A4%A", "/api/v1/logs/%ZZ"]) {
      const res = await server.request(path);
      expect(res.status, path).toBeLessThan(500);
      expect(await res.json()).toMatchObject({ code: expect.any(String), requestId: expect.any(String) });
    }
  });

  it("serves the admin UI page at /", async () => {
    const res = await server.request("/");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<html");
  });
});
