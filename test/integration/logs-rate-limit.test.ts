import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { insertLog } from "../helpers/log-rows.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("logs API rate limit (free plan: 10 per minute, burst 20)", () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  let server: TestServer;
  let tenant: Tenant;
  let logId: string;

  beforeAll(async () => {
    server = await startTestServer({ clock });
    tenant = await createTenant(server);
    logId = (await insertLog(server.deps.db, { workspaceId: tenant.workspaceId, workflowId: "wf_1", startedAt: clock.now() - 60_000 })).id!;
  });
  afterAll(() => server.close());

  const get = (path: string, key = tenant.apiKey) => server.request(path, { headers: { "x-api-key": key } });

  it("counts down on every endpoint, answers 429 with Retry-After when drained, and recovers with time", async () => {
    const paths = [
      `/api/v1/logs?workspaceId=${tenant.workspaceId}`,
      `/api/v1/logs/${logId}`,
      `/api/v1/logs/executions/nope`,
      `/api/v1/logs?workspaceId=${tenant.workspaceId}&limit=0`,
    ];
    const remaining: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await get(paths[i % paths.length]);
      expect(res.status).toBe([200, 200, 404, 400][i % paths.length]);
      expect(res.headers.get("x-ratelimit-limit")).toBe("10");
      expect(res.headers.get("ratelimit-policy")).toMatch(/^20;w=120$/);
      expect(Number.isNaN(Date.parse(res.headers.get("x-ratelimit-reset") ?? ""))).toBe(false);
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));

    const limited = await get(paths[0]);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBe(6);
    // Each header once: a repeated header reads as "0, 0" to clients.
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("10");
    const body = await limited.json();
    expect(body).toMatchObject({ code: "RATE_LIMITED", error: expect.any(String), requestId: expect.any(String) });

    // The bucket is checked before the input: a bad request is refused as 429 too, not 400.
    expect((await get(`${paths[0]}&limit=0`)).status).toBe(429);

    clock.advance(retryAfter * 1000 - 1);
    expect((await get(paths[0])).status).toBe(429);
    clock.advance(1);
    const recovered = await get(paths[0]);
    expect(recovered.status).toBe(200);
    expect(recovered.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await get(paths[0])).status).toBe(429);
  });

  it("a missing or wrong key is refused before the bucket: 401 without spending a token", async () => {
    const fresh = await createTenant(server);
    const first = await get(`/api/v1/logs?workspaceId=${fresh.workspaceId}`, fresh.apiKey);
    const before = Number(first.headers.get("x-ratelimit-remaining"));
    const unauth = await server.request(`/api/v1/logs?workspaceId=${fresh.workspaceId}`);
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get("x-ratelimit-remaining")).toBeNull();
    const after = await get(`/api/v1/logs?workspaceId=${fresh.workspaceId}`, fresh.apiKey);
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(before - 1);
  });
});
