import { describe, expect, it } from "vitest";
import { runWorkflow } from "../../../server/executor/index.ts";
import type { WorkflowState } from "../../../server/executor/types.ts";
import { api, chain, closedPort, start, testDeps, useReceiver } from "./helpers.ts";

const receiverOf = useReceiver();

async function run(state: WorkflowState, options: { random?: number } = {}) {
  const t = testDeps(options);
  const result = await runWorkflow({ state, input: {}, deps: t.deps, executionId: "exec_r" });
  const out = result.traceSpans.find((s) => s.type === "api")?.output as { status: number; error: string | null; data: unknown };
  return { result, out, ...t };
}

/** Answers with `statuses[n]` (the last one repeats), optionally with headers. */
function answerWith(statuses: number[], headers: Record<string, string> = {}) {
  receiverOf().reply((_req, res, n) => {
    res.writeHead(statuses[Math.min(n, statuses.length - 1)], { "content-type": "application/json", ...headers });
    res.end(`{"attempt":${n + 1}}`);
  });
}

describe("api block: retries", () => {
  it("retries a timed-out attempt, each attempt with its own timeout", async () => {
    receiverOf().reply((_req, res, n) => {
      if (n < 2) return; // never answers: the attempt times out
      res.end('{"late":false}');
    });
    const { result, out, sleeps } = await run(chain(start(), api({ url: `${receiverOf().url}/slow`, timeoutMs: 80 })));
    expect(receiverOf().requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
    expect(result.success).toBe(true);
    expect(out).toMatchObject({ status: 200, error: null, data: { late: false } });
  });

  it("reports a timeout after the last attempt", async () => {
    receiverOf().reply(() => {});
    const { result, out, sleeps } = await run(chain(start(), api({ url: `${receiverOf().url}/never`, timeoutMs: 50, retries: 1 })));
    expect(receiverOf().requests).toHaveLength(2);
    expect(sleeps).toEqual([500]);
    expect(out).toEqual({ data: null, status: 0, headers: {}, error: "Request timed out after 50 ms" });
    expect(result.success).toBe(false);
  });

  it("retries connection failures and reports Connection refused", async () => {
    const port = await closedPort();
    const { result, out, sleeps } = await run(chain(start(), api({ url: `http://127.0.0.1:${port}/x`, retries: 2 })));
    expect(sleeps).toEqual([500, 1000]);
    expect(out).toMatchObject({ status: 0, error: "Connection refused" });
    expect(result.error).toBe('Block "API" failed: Connection refused');
  });

  it("honours Retry-After in seconds on 429", async () => {
    answerWith([429, 200], { "retry-after": "3" });
    const { result, sleeps } = await run(chain(start(), api({ url: `${receiverOf().url}/limited` })));
    expect(receiverOf().requests).toHaveLength(2);
    expect(sleeps).toEqual([3000]);
    expect(result.success).toBe(true);
  });

  it("honours Retry-After as an HTTP date on 503, measured on the injected clock", async () => {
    const { deps } = testDeps();
    const at = new Date(deps.clock.now() + 7000).toUTCString();
    answerWith([503, 200], { "retry-after": at });
    const { sleeps } = await run(chain(start(), api({ url: `${receiverOf().url}/busy` })));
    expect(sleeps).toEqual([7000]);
  });

  it("caps Retry-After at 30 s", async () => {
    answerWith([429, 200], { "retry-after": "3600" });
    const { sleeps } = await run(chain(start(), api({ url: `${receiverOf().url}/long` })));
    expect(sleeps).toEqual([30_000]);
  });

  it("ignores Retry-After on other 5xx and backs off instead", async () => {
    answerWith([500, 502, 200], { "retry-after": "9" });
    const { sleeps, result } = await run(chain(start(), api({ url: `${receiverOf().url}/flaky` })));
    expect(sleeps).toEqual([500, 1000]);
    expect(result.success).toBe(true);
  });

  it("retries 503 and gives up after `retries` retries with the last answer", async () => {
    answerWith([503]);
    const { result, out, sleeps } = await run(chain(start(), api({ url: `${receiverOf().url}/down`, method: "PUT" })));
    expect(receiverOf().requests).toHaveLength(4); // default 3 retries
    expect(sleeps).toEqual([500, 1000, 2000]);
    expect(out).toMatchObject({ status: 503, error: "HTTP 503 Service Unavailable", data: { attempt: 4 } });
    expect(result).toMatchObject({ success: false, status: 500 });
  });

  it.each([400, 401, 404, 422])("does not retry %i", async (status) => {
    answerWith([status, 200]);
    const { out, sleeps, result } = await run(chain(start(), api({ url: `${receiverOf().url}/client-error` })));
    expect(receiverOf().requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(out.status).toBe(status);
    expect(result.success).toBe(false);
  });

  it("does not retry a blocked request", async () => {
    const { createGuardedFetch } = await import("../../../server/security/create-guarded-fetch.ts");
    const t = testDeps({ fetch: createGuardedFetch({ allowPrivateNetwork: false }) });
    const result = await runWorkflow({ state: chain(start(), api({ url: `${receiverOf().url}/x` })), input: {}, deps: t.deps, executionId: "e" });
    expect(receiverOf().requests).toHaveLength(0);
    expect(t.sleeps).toEqual([]);
    expect(result.error).toContain("private or local addresses are not allowed");
  });

  it.each(["POST", "PATCH"])("does not retry %s unless retryNonIdempotent is set", async (method) => {
    answerWith([500]);
    const once = await run(chain(start(), api({ url: `${receiverOf().url}/p`, method })));
    expect(receiverOf().requests).toHaveLength(1);
    expect(once.sleeps).toEqual([]);

    receiverOf().requests.length = 0;
    const port = await closedPort();
    const refused = await run(chain(start(), api({ url: `http://127.0.0.1:${port}/p`, method })));
    expect(refused.sleeps).toEqual([]);

    answerWith([500, 201]);
    const opted = await run(chain(start(), api({ url: `${receiverOf().url}/p`, method, retryNonIdempotent: true })));
    expect(receiverOf().requests).toHaveLength(2);
    expect(opted.result.success).toBe(true);
  });

  it.each(["GET", "PUT", "DELETE"])("retries %s by default", async (method) => {
    answerWith([500, 200]);
    const { result } = await run(chain(start(), api({ url: `${receiverOf().url}/i`, method })));
    expect(receiverOf().requests).toHaveLength(2);
    expect(result.success).toBe(true);
  });

  it("makes exactly one attempt with retries 0", async () => {
    answerWith([503]);
    const { sleeps } = await run(chain(start(), api({ url: `${receiverOf().url}/zero`, retries: 0 })));
    expect(receiverOf().requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("backs off exponentially up to 10 s, plus jitter from deps.random", async () => {
    answerWith([500]);
    const { sleeps } = await run(chain(start(), api({ url: `${receiverOf().url}/e`, retries: 7 })), { random: 0.5 });
    expect(receiverOf().requests).toHaveLength(8);
    // base 500 x 2^n capped at 10 000, plus 0.5 x 20 % jitter
    expect(sleeps).toEqual([550, 1100, 2200, 4400, 8800, 11_000, 11_000]);
  });

  it("logs each retry without secrets", async () => {
    answerWith([500, 200]);
    const { logs } = await run(chain(start(), api({ url: `${receiverOf().url}/l`, headers: { Authorization: "Bearer s3cret" } })));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("HTTP 500");
    expect(logs[0]).not.toContain("s3cret");
  });
});
