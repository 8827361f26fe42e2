import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../server/clock.ts";
import { usagePeriods, workflowDeployments, workflows, workflowTriggers } from "../../server/db/schema/index.ts";
import { takeExecutionToken } from "../../server/limits/execution-limits.ts";
import { billingPeriod } from "../../server/limits/usage.ts";
import * as constantTime from "../../server/security/constant-time.ts";
import * as registration from "../../server/triggers/plan-trigger-registration.ts";
import { createTenant, type Tenant } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const SECRET = "shared-secret-0123456789";
const SIGNING_SECRET = "signing-secret-abcdefghij";

type Block = { type: string; name: string; params?: Record<string, unknown> };
const flow = (start: Record<string, unknown>, rest: Record<string, Block> = {}, edges: Array<{ source: string; target: string }> = []) => ({
  blocks: { start: { type: "start", name: "Start", params: start }, ...rest },
  edges,
});
const respond = (params: Record<string, unknown>) => ({
  blocks: { respond: { type: "response", name: "Respond", params } },
  edges: [{ source: "start", target: "respond" }],
});

function envelopeOf(body: Record<string, unknown>, code: string) {
  expect(body).toMatchObject({ error: expect.any(String), code, requestId: expect.any(String) });
  expect(Object.keys(body).every((k) => ["error", "code", "details", "requestId"].includes(k))).toBe(true);
}

async function workflowApi(server: TestServer, tenant: Tenant) {
  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.request(path, { ...init, headers: { "x-api-key": tenant.apiKey, ...init.headers } });
  return {
    call,
    async create(state: unknown): Promise<string> {
      const res = await call("/api/workflows", { method: "POST", json: { workspaceId: tenant.workspaceId, name: "Hook", state } });
      expect(res.status).toBe(201);
      return (await res.json()).data.id;
    },
    deploy: (id: string) => call(`/api/workflows/${id}/deploy`, { method: "POST" }),
    async deployed(state: unknown): Promise<string> {
      const id = await this.create(state);
      const res = await this.deploy(id);
      expect(res.status).toBe(200);
      return id;
    },
  };
}

describe("webhook trigger: /api/webhooks/trigger/{path}", () => {
  const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 30, 0));
  let server: TestServer;
  let owner: Tenant;
  let api: Awaited<ReturnType<typeof workflowApi>>;
  let echoId: string;
  let secretId: string;

  const hook = (path: string, init: RequestInit & { json?: unknown } = {}) => server.request(`/api/webhooks/trigger/${path}`, init);

  beforeAll(async () => {
    server = await startTestServer({ clock });
    owner = await createTenant(server);
    api = await workflowApi(server, owner);
    echoId = await api.deployed(flow({ trigger: "webhook", path: "hooks/echo" }));
    await api.deployed(
      flow(
        { trigger: "webhook", path: "hooks/respond" },
        respond({ data: { got: "<start.body.name>" }, status: 202, headers: { "x-hook": "yes", "set-cookie": "a=b" } }).blocks,
        respond({}).edges,
      ),
    );
    await api.deployed(flow({ trigger: "webhook", path: "hooks/fail" }, respond({ status: "<start.query.status>" }).blocks, respond({}).edges));
    await api.deployed(flow({ trigger: "webhook", path: "hooks/empty" }, respond({ status: 204 }).blocks, respond({}).edges));
    secretId = await api.deployed(flow({ trigger: "webhook", path: "hooks/secret", secret: SECRET }));
    await api.deployed(flow({ trigger: "webhook", path: "hooks/signed", secret: SIGNING_SECRET, signature: "hmac-sha256" }));
  });
  afterAll(() => server.close());

  describe("input", () => {
    it("passes a JSON body, lowercased headers without credentials, the query and the method", async () => {
      const res = await hook("hooks/echo?a=1&b=x&b=y", {
        method: "POST",
        json: { order: 42, items: ["a"] },
        headers: { "X-Custom-Thing": "value", Authorization: "Bearer top", Cookie: "sid=1", "X-Api-Key": "k" },
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({ success: true, executionId: expect.stringMatching(/^exec_/), output: expect.any(Object) });
      const input = body.output;
      expect(input.method).toBe("POST");
      expect(input.body).toEqual({ order: 42, items: ["a"] });
      expect(input.query).toEqual({ a: "1", b: ["x", "y"] });
      expect(input.headers["x-custom-thing"]).toBe("value");
      expect(input.headers["content-type"]).toBe("application/json");
      for (const name of ["authorization", "cookie", "x-api-key"]) expect(input.headers).not.toHaveProperty(name);
    });

    it("passes a body of another content type as text, on PUT", async () => {
      const res = await hook("hooks/echo", { method: "PUT", body: "plain <b>text</b>", headers: { "content-type": "text/plain" } });
      expect(res.status).toBe(200);
      const { output } = await res.json();
      expect(output).toMatchObject({ method: "PUT", body: "plain <b>text</b>", query: {} });
    });

    it("runs on GET with a null body", async () => {
      const res = await hook("hooks/echo?ping=1");
      expect(res.status).toBe(200);
      expect((await res.json()).output).toMatchObject({ method: "GET", body: null, query: { ping: "1" } });
    });

    it("refuses a body that claims JSON but is not with 400, and a body over 1 MiB with 413", async () => {
      const bad = await hook("hooks/echo", { method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
      expect(bad.status).toBe(400);
      envelopeOf(await bad.json(), "INVALID_JSON");
      const big = await hook("hooks/echo", { method: "POST", body: "x".repeat(1024 * 1024 + 1), headers: { "content-type": "text/plain" } });
      expect(big.status).toBe(413);
      envelopeOf(await big.json(), "PAYLOAD_TOO_LARGE");
    });

    it("answers 405 for other methods without running (HEAD included)", async () => {
      const del = await hook("hooks/echo", { method: "DELETE" });
      expect(del.status).toBe(405);
      expect(del.headers.get("allow")).toBe("GET, POST, PUT");
      envelopeOf(await del.json(), "METHOD_NOT_ALLOWED");
      const head = await hook("hooks/echo", { method: "HEAD" });
      expect(head.status).toBe(405);
    });
  });

  describe("answer", () => {
    it("answers with the response block's status, safe headers and data", async () => {
      const res = await hook("hooks/respond", { method: "POST", json: { name: "Ada" } });
      expect(res.status).toBe(202);
      expect(res.headers.get("x-hook")).toBe("yes");
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.json()).toEqual({ got: "Ada" });
    });

    it("answers a 204 from the response block without a body", async () => {
      const res = await hook("hooks/empty", { method: "POST" });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
    });

    it("answers a failed run with 500 {success: false, executionId, error}", async () => {
      const res = await hook("hooks/fail?status=abc", { method: "POST" });
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toEqual({ success: false, executionId: expect.stringMatching(/^exec_/), error: expect.stringContaining("status") });
    });

    it("answers 404 for a path no deployed workflow has", async () => {
      for (const path of ["hooks/nothing", "", "hooks/../echo", "hooks/echo/"]) {
        const res = await hook(path, { method: "POST" });
        expect(res.status).toBe(404);
        envelopeOf(await res.json(), "NOT_FOUND");
      }
    });
  });

  describe("verification", () => {
    it("with a shared secret: accepts the right X-Webhook-Secret (compared in constant time), refuses missing or wrong", async () => {
      const compare = vi.spyOn(constantTime, "secretsEqual");
      try {
        const ok = await hook("hooks/secret", { method: "POST", json: {}, headers: { "X-Webhook-Secret": SECRET } });
        expect(ok.status).toBe(200);
        const output = (await ok.json()).output;
        expect(output.headers).not.toHaveProperty("x-webhook-secret");
        expect(JSON.stringify(output)).not.toContain(SECRET);
        expect(compare).toHaveBeenCalled();
      } finally {
        compare.mockRestore();
      }
      const missing = await hook("hooks/secret", { method: "POST", json: {} });
      expect(missing.status).toBe(401);
      envelopeOf(await missing.json(), "UNAUTHORIZED");
      const wrong = await hook("hooks/secret", { method: "POST", json: {}, headers: { "X-Webhook-Secret": `${SECRET}x` } });
      expect(wrong.status).toBe(401);
      const body = await wrong.json();
      envelopeOf(body, "UNAUTHORIZED");
      expect(JSON.stringify(body)).not.toContain(SECRET);
    });

    it("with hmac-sha256: accepts sha256=<hex HMAC of the raw body>, refuses missing, wrong or a secret header", async () => {
      const raw = '{"event":"paid","amount":10}';
      const signature = `sha256=${createHmac("sha256", SIGNING_SECRET).update(raw).digest("hex")}`;
      const send = (headers: Record<string, string>, body = raw) =>
        hook("hooks/signed", { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
      const ok = await send({ "X-Webhook-Signature": signature });
      expect(ok.status).toBe(200);
      expect((await ok.json()).output.body).toEqual({ event: "paid", amount: 10 });
      expect((await send({ "X-Webhook-Signature": signature.toUpperCase().replace("SHA256=", "sha256=") })).status).toBe(200);
      expect((await send({})).status).toBe(401);
      expect((await send({ "X-Webhook-Secret": SIGNING_SECRET })).status).toBe(401);
      expect((await send({ "X-Webhook-Signature": signature }, raw.replace("10", "99"))).status).toBe(401);
      const wrongKey = `sha256=${createHmac("sha256", "another-secret-000000").update(raw).digest("hex")}`;
      const wrong = await send({ "X-Webhook-Signature": wrongKey });
      expect(wrong.status).toBe(401);
      envelopeOf(await wrong.json(), "UNAUTHORIZED");
    });

    it("stores the secret sealed (trigger row, workflow and deployment) and masks it in answers", async () => {
      const [trigger] = await server.deps.db.select().from(workflowTriggers).where(eq(workflowTriggers.workflowId, secretId));
      expect(trigger).toMatchObject({ kind: "webhook", key: "hooks/secret", workspaceId: owner.workspaceId });
      expect(trigger.config).not.toContain(SECRET);
      expect(JSON.parse(trigger.config).secret).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
      const [wf] = await server.deps.db.select().from(workflows).where(eq(workflows.id, secretId));
      expect(wf.state).not.toContain(SECRET);
      const snapshots = await server.deps.db.select().from(workflowDeployments).where(eq(workflowDeployments.workflowId, secretId));
      for (const s of snapshots) expect(s.state).not.toContain(SECRET);

      const got = await api.call(`/api/workflows/${secretId}`);
      const text = await got.text();
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(JSON.parse(trigger.config).secret);
      expect(JSON.parse(text).data.state.blocks.start.params).toEqual({ trigger: "webhook", path: "hooks/secret", secret: "********" });

      // Execution details show the deployed snapshot: masked there too, not even the ciphertext.
      const run = await hook("hooks/secret", { method: "POST", json: {}, headers: { "X-Webhook-Secret": SECRET } });
      const { executionId } = await run.json();
      const details = await (await api.call(`/api/v1/logs/executions/${executionId}`)).text();
      expect(details).not.toContain(JSON.parse(trigger.config).secret);
      expect(JSON.parse(details).workflowState.blocks.start.params.secret).toBe("********");
    });

    it("answers 503 SECRET_UNREADABLE, not 500, when the stored secret cannot be decrypted (a changed key)", async () => {
      const [trigger] = await server.deps.db.select().from(workflowTriggers).where(eq(workflowTriggers.workflowId, secretId));
      const sealed = JSON.parse(trigger.config).secret as string;
      const foreign = server.deps.secrets.encrypt("x".repeat(24)).replace(/^v1:[\w-]+/, sealed.split(":").slice(0, 2).join(":"));
      await server.deps.db.update(workflowTriggers).set({ config: JSON.stringify({ ...JSON.parse(trigger.config), secret: foreign }) }).where(eq(workflowTriggers.id, trigger.id));
      try {
        const res = await hook("hooks/secret", { method: "POST", json: {}, headers: { "X-Webhook-Secret": SECRET } });
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ code: "SECRET_UNREADABLE", requestId: expect.any(String) });
      } finally {
        await server.deps.db.update(workflowTriggers).set({ config: trigger.config }).where(eq(workflowTriggers.id, trigger.id));
      }
    });

    it("an update sending ******** keeps the secret (no redeploy needed); a new secret replaces it once deployed", async () => {
      const state = (params: Record<string, unknown>) => flow({ trigger: "webhook", path: "hooks/secret", ...params });
      const keep = await api.call(`/api/workflows/${secretId}`, { method: "PUT", json: { state: state({ secret: "********" }) } });
      expect(keep.status).toBe(200);
      expect((await (await api.call(`/api/workflows/${secretId}/status`)).json()).needsRedeployment).toBe(false);
      const same = await api.call(`/api/workflows/${secretId}`, { method: "PUT", json: { state: state({ secret: SECRET }) } });
      expect(same.status).toBe(200);
      expect((await (await api.call(`/api/workflows/${secretId}/status`)).json()).needsRedeployment).toBe(false);

      const next = "rotated-secret-9876543210";
      await api.call(`/api/workflows/${secretId}`, { method: "PUT", json: { state: state({ secret: next }) } });
      expect((await (await api.call(`/api/workflows/${secretId}/status`)).json()).needsRedeployment).toBe(true);
      expect((await api.deploy(secretId)).status).toBe(200);
      const old = await hook("hooks/secret", { method: "POST", headers: { "X-Webhook-Secret": SECRET } });
      expect(old.status).toBe(401);
      const fresh = await hook("hooks/secret", { method: "POST", headers: { "X-Webhook-Secret": next } });
      expect(fresh.status).toBe(200);
    });

    it("refuses ******** when there is no stored secret, and a short secret", async () => {
      const masked = await api.call("/api/workflows", {
        method: "POST",
        json: { workspaceId: owner.workspaceId, name: "x", state: flow({ trigger: "webhook", path: "p1", secret: "********" }) },
      });
      expect(masked.status).toBe(400);
      expect((await masked.json()).code).toBe("INVALID_PARAMETER");
      const short = await api.call("/api/workflows", {
        method: "POST",
        json: { workspaceId: owner.workspaceId, name: "x", state: flow({ trigger: "webhook", path: "p1", secret: "short" }) },
      });
      expect(short.status).toBe(400);
      const body = await short.json();
      expect(body.code).toBe("INVALID_WORKFLOW");
      expect(body.error).toContain("secret must be a string of at least 16 characters");
    });
  });

  describe("registry", () => {
    it("refuses a path another workflow holds with 409 naming the path (and the workflow in the same workspace)", async () => {
      const mine = await api.create(flow({ trigger: "webhook", path: "hooks/echo" }));
      const res = await api.deploy(mine);
      expect(res.status).toBe(409);
      const body = await res.json();
      envelopeOf(body, "CONFLICT");
      expect(body.error).toContain('"hooks/echo"');
      expect(body.error).toContain(echoId);

      const stranger = await createTenant(server);
      const theirs = await workflowApi(server, stranger);
      const id = await theirs.create(flow({ trigger: "webhook", path: "hooks/echo" }));
      const refused = await theirs.deploy(id);
      expect(refused.status).toBe(409);
      const text = await refused.text();
      expect(text).toContain("hooks/echo");
      expect(text).not.toContain(echoId);
      // Nothing was deployed.
      expect((await (await theirs.call(`/api/workflows/${id}/status`)).json()).isDeployed).toBe(false);
    });

    it("maps a deploy losing the race for a path (the unique index) to the same 409", async () => {
      const { db } = server.deps;
      const row = (id: string, workflowId: string) => ({
        id,
        kind: "webhook" as const,
        key: "hooks/raced",
        workflowId,
        workspaceId: owner.workspaceId,
        deploymentId: "dep_x",
        createdAt: 1,
      });
      const error = await db
        .batch([db.insert(workflowTriggers).values(row("trg_a", "wf_a")), db.insert(workflowTriggers).values(row("trg_b", "wf_b"))])
        .then(() => null, (e: unknown) => e);
      expect(error).not.toBeNull();
      expect(registration.triggerConflictFrom(error, row("trg_b", "wf_b"))).toMatchObject({ status: 409, code: "CONFLICT" });
      expect(registration.triggerConflictFrom(new Error("disk full"), row("trg_b", "wf_b"))).toBeNull();
      expect(await db.select().from(workflowTriggers).where(eq(workflowTriggers.key, "hooks/raced"))).toEqual([]);
    });

    it("registers what the snapshot holds when a save lands while deploying (the deploy starts over)", async () => {
      const id = await api.create(flow({ trigger: "webhook", path: "race/before" }));
      const real = registration.planTriggerRegistration;
      let saved = false;
      const plan = vi.spyOn(registration, "planTriggerRegistration").mockImplementation(async (ctx, workflow, deploymentId, now) => {
        const planned = await real(ctx, workflow, deploymentId, now);
        if (!saved) {
          saved = true;
          const res = await api.call(`/api/workflows/${id}`, { method: "PUT", json: { state: flow({ trigger: "webhook", path: "race/after" }) } });
          expect(res.status).toBe(200);
        }
        return planned;
      });
      try {
        const res = await api.deploy(id);
        expect(res.status).toBe(200);
        expect((await res.json()).data.version).toBe(1);
        expect(plan).toHaveBeenCalledTimes(2);
      } finally {
        plan.mockRestore();
      }
      const [trigger] = await server.deps.db.select().from(workflowTriggers).where(eq(workflowTriggers.workflowId, id));
      expect(trigger.key).toBe("race/after");
      const [snapshot] = await server.deps.db.select().from(workflowDeployments).where(eq(workflowDeployments.id, trigger.deploymentId));
      expect(snapshot.state).toContain("race/after");
      expect((await hook("race/before", { method: "POST" })).status).toBe(404);
      expect((await hook("race/after", { method: "POST" })).status).toBe(200);
    });

    it("moves the registration when a workflow is redeployed with another trigger", async () => {
      const id = await api.deployed(flow({ trigger: "webhook", path: "hooks/moving" }));
      expect((await hook("hooks/moving", { method: "POST" })).status).toBe(200);
      await api.call(`/api/workflows/${id}`, { method: "PUT", json: { state: flow({ trigger: "webhook", path: "hooks/moved" }) } });
      // The draft does not change the live registration.
      expect((await hook("hooks/moving", { method: "POST" })).status).toBe(200);
      await api.deploy(id);
      expect((await hook("hooks/moving", { method: "POST" })).status).toBe(404);
      expect((await hook("hooks/moved", { method: "POST" })).status).toBe(200);
      await api.call(`/api/workflows/${id}`, { method: "PUT", json: { state: flow({}) } });
      await api.deploy(id);
      expect((await hook("hooks/moved", { method: "POST" })).status).toBe(404);
      expect(await server.deps.db.select().from(workflowTriggers).where(eq(workflowTriggers.workflowId, id))).toEqual([]);
    });

    it("undeploy stops every trigger of the workflow; deploy brings it back; delete removes the registration", async () => {
      const id = await api.deployed(flow({ trigger: "webhook", path: "hooks/undeploy" }));
      const res = await api.call(`/api/workflows/${id}/undeploy`, { method: "POST" });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { id, isDeployed: false } });
      const gone = await hook("hooks/undeploy", { method: "POST" });
      expect(gone.status).toBe(404);
      envelopeOf(await gone.json(), "NOT_FOUND");
      const exec = await api.call(`/api/workflows/${id}/execute`, { method: "POST", json: {} });
      expect(exec.status).toBe(400);
      expect((await exec.json()).code).toBe("WORKFLOW_NOT_DEPLOYED");
      expect((await (await api.call(`/api/workflows/${id}/status`)).json()).isDeployed).toBe(false);
      expect((await api.call(`/api/workflows/${id}/undeploy`, { method: "POST" })).status).toBe(200);

      await api.deploy(id);
      expect((await hook("hooks/undeploy", { method: "POST" })).status).toBe(200);
      expect((await api.call(`/api/workflows/${id}`, { method: "DELETE" })).status).toBe(200);
      expect((await hook("hooks/undeploy", { method: "POST" })).status).toBe(404);
      expect(await server.deps.db.select().from(workflowTriggers).where(eq(workflowTriggers.workflowId, id))).toEqual([]);
    });

    it("undeploy needs write permission and hides other tenants' workflows", async () => {
      const stranger = await createTenant(server);
      const res = await server.request(`/api/workflows/${echoId}/undeploy`, { method: "POST", headers: { "x-api-key": stranger.apiKey } });
      expect(res.status).toBe(404);
      expect((await hook("hooks/echo", { method: "POST" })).status).toBe(200);
    });
  });

  describe("billing and logs", () => {
    it("records runs with trigger webhook, billed to the workspace owner", async () => {
      const res = await api.call(`/api/v1/logs?workspaceId=${owner.workspaceId}&triggers=webhook&limit=100`);
      expect(res.status).toBe(200);
      const { data } = await res.json();
      expect(data.length).toBeGreaterThan(5);
      expect(data.every((e: { trigger: string }) => e.trigger === "webhook")).toBe(true);
      const [usage] = await server.deps.db.select().from(usagePeriods).where(eq(usagePeriods.userId, owner.userId));
      expect(usage.cost).toBeGreaterThan(0);
    });

    it("answers 402 when the owner's usage limit is reached, without running", async () => {
      const tenant = await createTenant(server);
      const theirs = await workflowApi(server, tenant);
      await theirs.deployed(flow({ trigger: "webhook", path: "hooks/broke" }));
      await server.deps.db
        .insert(usagePeriods)
        .values({ userId: tenant.userId, period: billingPeriod(clock.now()), cost: 1000, executions: 1 });
      const res = await hook("hooks/broke", { method: "POST" });
      expect(res.status).toBe(402);
      envelopeOf(await res.json(), "USAGE_LIMIT_EXCEEDED");
    });
  });
});

describe("webhook trigger rate limit", () => {
  const clock = new ManualClock(Date.UTC(2026, 4, 10, 8, 30, 0));
  const LICENSE = JSON.stringify({ payload: { licensee: "t", plan: "free", rateLimits: { sync: { requestsPerMinute: 1, maxBurst: 2 } } } });
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { LICENSE } });
  });
  afterAll(() => server.close());

  it("spends the workspace owner's sync bucket: 429 with Retry-After once it is empty", async () => {
    const owner = await createTenant(server);
    const api = await workflowApi(server, owner);
    await api.deployed(flow({ trigger: "webhook", path: "limited" }));
    await takeExecutionToken(server.deps, owner.userId, "sync");
    expect((await server.request("/api/webhooks/trigger/limited", { method: "POST" })).status).toBe(200);
    const res = await server.request("/api/webhooks/trigger/limited", { method: "POST" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = await res.json();
    envelopeOf(body, "RATE_LIMITED");
    expect(body.details).toMatchObject({ bucket: "sync" });
  });
});
