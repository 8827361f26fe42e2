import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("unknown routes and methods", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers 405 with Allow for a path that exists under other methods", async () => {
    const cases: Array<[string, string, string]> = [
      ["DELETE", "/api/v1/logs", "GET"],
      ["PATCH", "/api/workflows/wf_any", "DELETE, GET, PUT"],
      ["GET", "/api/workflows/wf_any/deploy", "POST"],
      ["PUT", "/api/folders", "GET, POST"],
      ["POST", "/api/jobs/job_1/", "GET"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await server.request(path, { method, headers: { "x-api-key": "whatever" } });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(await res.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED", error: expect.stringContaining(allow), requestId: expect.any(String) });
    }
  });

  it("answers 404 for a path no procedure has", async () => {
    for (const [method, path] of [["GET", "/api/nothing"], ["POST", "/api/workflows/wf_1/deploy/extra"], ["GET", "/api/v2/logs"]]) {
      const res = await server.request(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get("allow")).toBeNull();
      expect((await res.json()).code).toBe("NOT_FOUND");
    }
  });
});
