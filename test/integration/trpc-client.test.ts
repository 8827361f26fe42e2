import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../../server/routers/index.ts";
import { createTenant } from "../helpers/factories.ts";
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from "../helpers/server.ts";

describe("typed tRPC client at /trpc", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const client = (headers: Record<string, string>) =>
    createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc`, headers })] });

  it("calls admin and API-key procedures with the same contract as REST", async () => {
    const admin = client({ "x-admin-key": TEST_ADMIN_KEY });
    const created = await admin.admin.createUser.mutate({ email: "trpc@example.com", name: "T" });
    expect(created.data.email).toBe("trpc@example.com");
    const tenant = await createTenant(server);
    const usage = await client({ "x-api-key": tenant.apiKey }).usage.getUsageLimits.query();
    expect(usage.success).toBe(true);
    expect(usage.rateLimit.authType).toBe("api_key");
  });

  it("carries the error envelope in error.data.envelope, without stack traces", async () => {
    const anonymous = client({});
    const err = await anonymous.usage.getUsageLimits.query().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    const data = (err as TRPCClientError<AppRouter>).data as unknown as Record<string, unknown>;
    expect(data.httpStatus).toBe(401);
    expect(data.code).toBe("UNAUTHORIZED");
    expect(data.envelope).toMatchObject({ code: "UNAUTHORIZED", requestId: expect.any(String) });
    expect(JSON.stringify(data)).not.toContain("stack");
  });

  it("reports invalid input naming the parameter", async () => {
    const admin = client({ "x-admin-key": TEST_ADMIN_KEY });
    const err = (await admin.admin.listUsers.query({ limit: 5000, offset: 0 }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    const data = err.data as unknown as { httpStatus: number; envelope: { code: string; details: Array<{ parameter: string }> } };
    expect(data.httpStatus).toBe(400);
    expect(data.envelope.code).toBe("INVALID_PARAMETER");
    expect(data.envelope.details[0].parameter).toBe("limit");
  });
});
