import { describe, expect, it } from "vitest";
import { JobFailure } from "../../../server/jobs/job-failure.ts";
import { defaultRetryDelayMs, MAX_ERROR_LENGTH, retryDecision } from "../../../server/jobs/retry-decision.ts";

describe("retryDecision", () => {
  it("doubles the default delay per attempt, capped at 10 minutes", () => {
    expect([1, 2, 3, 4, 10, 11, 50].map(defaultRetryDelayMs)).toEqual([1000, 2000, 4000, 8000, 512_000, 600_000, 600_000]);
  });

  it("queues another attempt while attempts remain, and fails on the last one", () => {
    expect(retryDecision({ attempts: 1, maxAttempts: 3 }, new Error("x"), 100)).toEqual({ status: "queued", runAt: 1100, error: "x" });
    expect(retryDecision({ attempts: 2, maxAttempts: 3 }, new Error("x"), 100)).toEqual({ status: "queued", runAt: 2100, error: "x" });
    expect(retryDecision({ attempts: 3, maxAttempts: 3 }, new Error("x"), 100)).toEqual({ status: "failed", error: "x" });
  });

  it("uses a custom delay, a JobFailure's retryAfterMs, and fails a non-retryable JobFailure at once", () => {
    expect(retryDecision({ attempts: 1, maxAttempts: 5 }, new Error("x"), 0, (n) => n * 7)).toMatchObject({ runAt: 7 });
    expect(retryDecision({ attempts: 1, maxAttempts: 5 }, new JobFailure("x", { retryAfterMs: 5000 }), 0)).toMatchObject({ runAt: 5000 });
    expect(retryDecision({ attempts: 1, maxAttempts: 5 }, new JobFailure("nope", { retry: false }), 0)).toEqual({ status: "failed", error: "nope" });
  });

  it("keeps a readable, bounded error message for any thrown value", () => {
    expect(retryDecision({ attempts: 9, maxAttempts: 9 }, "plain string", 0)).toMatchObject({ error: "plain string" });
    expect(retryDecision({ attempts: 9, maxAttempts: 9 }, new TypeError(""), 0)).toMatchObject({ error: "TypeError" });
    const long = retryDecision({ attempts: 9, maxAttempts: 9 }, new Error("e".repeat(10_000)), 0);
    expect(long.error).toHaveLength(MAX_ERROR_LENGTH);
  });
});
