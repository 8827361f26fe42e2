import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { usagePeriods } from "../../server/db/schema/index.ts";
import { AppError } from "../../server/errors.ts";
import { takeExecutionToken } from "../../server/limits/execution-limits.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const START = Date.UTC(2026, 0, 15, 12, 0, 0);
const PATH = "/api/users/me/usage-limits";
const iso = (ms: number) => new Date(ms).toISOString();

// Team plan, with the sync bucket overridden to 60 per minute (one token a second), burst 5.
const TEAM_LICENSE = JSON.stringify({
  payload: { licensee: "Acme Corp", plan: "team", rateLimits: { sync: { requestsPerMinute: 60, maxBurst: 5 } } },
});

describe("GET /api/users/me/usage-limits", () => {
  const clock = new ManualClock(START);
  let server: TestServer;
  let tenant: Tenant;
  const get = (key = tenant.apiKey) => server.request(PATH, { headers: { "X-API-Key": key } });

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { LICENSE: TEAM_LICENSE } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  it("answers the spec's shape with the license's plan, limit and buckets", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      rateLimit: {
        sync: { requestsPerMinute: 60, maxBurst: 5, remaining: 5, resetAt: iso(START + 1_000), isLimited: false },
        async: { requestsPerMinute: 2500, maxBurst: 5000, remaining: 5000, resetAt: iso(START + 24), isLimited: false },
        authType: "api_key",
      },
      usage: { currentPeriodCost: 0, limit: 500, plan: "team", isExceeded: false },
    });
  });

  it("accepts the key header in any case", async () => {
    const res = await server.request(PATH, { headers: { "x-api-key": tenant.apiKey } });
    expect(res.status).toBe(200);
  });

  it("answers 401 in the error envelope without a key or with an unknown one", async () => {
    for (const res of [await server.request(PATH), await get("sk_not_a_real_key")]) {
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toEqual({ error: expect.any(String), code: "UNAUTHORIZED", requestId: expect.any(String) });
    }
  });

  it("does not consume a token from any bucket, however often it is called", async () => {
    const first = await (await get()).json();
    for (let i = 0; i < 30; i++) expect((await get()).status).toBe(200);
    const last = await (await get()).json();
    expect(last.rateLimit).toEqual(first.rateLimit);
    expect(last.rateLimit.sync.remaining).toBe(5);
    // Not metered by the API bucket either: no rate-limit headers are sent.
    expect((await get()).headers.get("x-ratelimit-remaining")).toBeNull();
  });

  it("reports the cost of the current billing period only", async () => {
    const other = await createTenant(server);
    await server.deps.db.insert(usagePeriods).values([
      { userId: other.userId, period: "2026-01", cost: 12.345, executions: 7 },
      { userId: other.userId, period: "2025-12", cost: 99, executions: 50 },
      { userId: tenant.userId, period: "2026-01", cost: 1000, executions: 1 },
    ]);
    const res = await get(other.apiKey);
    expect((await res.json()).usage).toEqual({ currentPeriodCost: 12.345, limit: 500, plan: "team", isExceeded: false });
    const mine = await (await get()).json();
    expect(mine.usage).toMatchObject({ currentPeriodCost: 1000, isExceeded: true });

    clock.set(Date.UTC(2025, 11, 31, 23, 59));
    expect((await (await get(other.apiKey)).json()).usage.currentPeriodCost).toBe(99);
    clock.set(Date.UTC(2026, 1, 1, 0, 0));
    expect((await (await get(other.apiKey)).json()).usage.currentPeriodCost).toBe(0);
    clock.set(START);
  });

  it("shows the sync bucket limited once executions drained it, and refilling as time passes", async () => {
    const user = await createTenant(server);
    for (let i = 0; i < 5; i++) await takeExecutionToken(server.deps, user.userId, "sync");
    const refused = await takeExecutionToken(server.deps, user.userId, "sync").then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 429, headers: { "Retry-After": "1" } });

    const drained = await (await get(user.apiKey)).json();
    expect(drained.rateLimit.sync).toEqual({
      requestsPerMinute: 60,
      maxBurst: 5,
      remaining: 0,
      resetAt: iso(clock.now() + 1_000),
      isLimited: true,
    });
    expect(drained.rateLimit.async).toMatchObject({ remaining: 5000, isLimited: false });

    clock.advance(1_000);
    const one = await (await get(user.apiKey)).json();
    expect(one.rateLimit.sync).toMatchObject({ remaining: 1, isLimited: false, resetAt: iso(clock.now() + 1_000) });

    clock.advance(60_000);
    const full = await (await get(user.apiKey)).json();
    expect(full.rateLimit.sync).toMatchObject({ remaining: 5, isLimited: false });
    clock.set(START);
  });
});

describe("GET /api/users/me/usage-limits without a license", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock: new ManualClock(START) });
  });
  afterAll(() => server.close());

  it("reports the free plan's limits", async () => {
    const tenant = await createTenant(server);
    const res = await server.request(PATH, { headers: { "X-API-Key": tenant.apiKey } });
    const body = await res.json();
    expect(body.usage).toEqual({ currentPeriodCost: 0, limit: 10, plan: "free", isExceeded: false });
    expect(body.rateLimit.sync).toMatchObject({ requestsPerMinute: 50, maxBurst: 100, remaining: 100 });
    expect(body.rateLimit.async).toMatchObject({ requestsPerMinute: 200, maxBurst: 400, remaining: 400 });
  });
});
