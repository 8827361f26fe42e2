import { readFileSync } from "node:fs";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../../openapi/schema.d.ts";
import { OPENAPI_JSON_PATH, OPENAPI_TYPES_PATH, renderOpenApiArtifacts } from "../../scripts/openapi-artifacts.ts";
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from "../helpers/server.ts";

describe("OpenAPI document", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("the committed openapi/openapi.json and schema.d.ts are up to date (run `npm run openapi`)", async () => {
    const { json, types } = await renderOpenApiArtifacts();
    expect(readFileSync(OPENAPI_JSON_PATH, "utf8")).toBe(json);
    expect(readFileSync(OPENAPI_TYPES_PATH, "utf8")).toBe(types);
  });

  it("GET /openapi.json serves the same OpenAPI 3.1 document", async () => {
    const res = await server.request("/openapi.json");
    expect(res.status).toBe(200);
    const served = await res.json();
    expect(served).toEqual(JSON.parse(readFileSync(OPENAPI_JSON_PATH, "utf8")));
    expect(served.openapi).toBe("3.1.0");
  });

  it("describes every error as the one envelope and success statuses from the contract", () => {
    const doc = JSON.parse(readFileSync(OPENAPI_JSON_PATH, "utf8"));
    const create = doc.paths["/api/v1/admin/users"].post;
    expect(Object.keys(create.responses)).toContain("201");
    expect(create.responses["400"].content["application/json"].schema.$ref).toBe("#/components/schemas/ErrorEnvelope");
    expect(create.security).toEqual([{ adminKey: [] }]);
    expect(doc.paths["/api/health"].get.security).toEqual([]);
  });

  it("a client generated from the document calls the running server", async () => {
    const client = createClient<paths>({ baseUrl: server.url, headers: { "x-admin-key": TEST_ADMIN_KEY } });
    const created = await client.POST("/api/v1/admin/users", { body: { email: "typed@example.com", name: "Typed" } });
    expect(created.response.status).toBe(201);
    expect(created.data?.data.email).toBe("typed@example.com");
    const listed = await client.GET("/api/v1/admin/users", { params: { query: { limit: 10, offset: 0 } } });
    expect(listed.data?.data.map((u) => u.email)).toContain("typed@example.com");
    const health = await client.GET("/api/health");
    expect(health.data).toEqual({ status: "ok" });
    const bad = await client.POST("/api/v1/admin/users", { body: { email: "not-an-email", name: "x" } });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ code: "INVALID_PARAMETER", requestId: expect.any(String) });
  });
});
