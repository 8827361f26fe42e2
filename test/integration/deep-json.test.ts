import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../server/http/read-json-body.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** JSON text nested `depth` objects deep, built as text (JSON.stringify itself overflows on it). */
const nestedJson = (depth: number): string => `${'{"a":'.repeat(depth)}"leaf"${"}".repeat(depth)}`;

describe("deeply nested JSON", () => {
  let server: TestServer;
  let tenant: Tenant;
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  /** A create-workflow body whose response block data is `dataJson`. */
  const createBody = (name: string, dataJson: string) =>
    `{"workspaceId":${JSON.stringify(tenant.workspaceId)},"name":${JSON.stringify(name)},"state":{"blocks":{` +
    `"start":{"type":"start","name":"Start"},"respond":{"type":"response","name":"Respond","params":{"data":${dataJson}}}},` +
    `"edges":[{"source":"start","target":"respond"}]}}`;
  const post = (path: string, body: string) =>
    server.request(path, { method: "POST", headers: { "x-api-key": tenant.apiKey, "content-type": "application/json" }, body });

  it("is refused with 400 on REST bodies (no 500), at any depth past the limit", async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 10_000]) {
      const res = await post("/api/workflows", createBody("deep", nestedJson(depth)));
      expect(res.status, String(depth)).toBe(400);
      expect(await res.json()).toMatchObject({ code: "INVALID_JSON", error: expect.stringContaining("nested") });
    }
  });

  it("is refused before running on execute, so nothing is charged", async () => {
    const created = await post("/api/workflows", createBody("echo", '"<start>"'));
    const { data } = await created.json();
    await server.request(`/api/workflows/${data.id}/deploy`, { method: "POST", headers: { "x-api-key": tenant.apiKey } });
    const res = await post(`/api/workflows/${data.id}/execute`, nestedJson(10_000));
    expect(res.status).toBe(400);
    const usage = await server.deps.database.client.execute("select count(*) as n from execution_logs");
    expect(usage.rows[0]?.n).toBe(0);
  });

  it("is refused on the tRPC transport too", async () => {
    const res = await post("/trpc/workflows.create", createBody("deep", nestedJson(10_000)));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "INVALID_JSON" });
  });

  it("accepts nesting up to the limit", async () => {
    const res = await post("/api/workflows", createBody("ok", nestedJson(MAX_JSON_DEPTH - 6)));
    expect(res.status).toBe(201);
  });
});
