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

  it("answers unknown routes with 404 in the error envelope", async () => {
    const res = await server.request("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND", requestId: expect.any(String) });
  });

  it("echoes a well-formed x-request-id", async () => {
    const res = await server.request("/api/nope", { headers: { "x-request-id": "abc-123" } });
    expect((await res.json()).requestId).toBe("abc-123");
  });

  it("serves the admin UI page at /", async () => {
    const res = await server.request("/");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<html");
  });
});
