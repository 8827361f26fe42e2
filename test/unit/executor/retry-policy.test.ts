import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter, retryDelay } from "../../../server/executor/blocks/api-retry.ts";

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const zero = () => 0;
const policy = { retries: 3, mayRetry: true };
const status = (code: number, retryAfter: string | null = null) => ({ kind: "response" as const, status: code, retryAfter });

describe("retry policy", () => {
  it("retries timeouts, connection failures, 429 and 5xx only", () => {
    expect(retryDelay({ kind: "failure", reason: "timeout" }, 0, policy, NOW, zero)).toBe(500);
    expect(retryDelay({ kind: "failure", reason: "network" }, 0, policy, NOW, zero)).toBe(500);
    for (const reason of ["blocked", "too_large", "invalid_url", "invalid_request", "too_many_redirects", "unknown"] as const) {
      expect(retryDelay({ kind: "failure", reason }, 0, policy, NOW, zero)).toBeNull();
    }
    for (const code of [429, 500, 502, 503, 504]) expect(retryDelay(status(code), 0, policy, NOW, zero)).toBe(500);
    for (const code of [200, 301, 400, 401, 403, 404, 409, 422]) expect(retryDelay(status(code), 0, policy, NOW, zero)).toBeNull();
  });

  it("stops after the allowed retries and when retrying is not allowed", () => {
    expect(retryDelay(status(503), 2, policy, NOW, zero)).toBe(2000);
    expect(retryDelay(status(503), 3, policy, NOW, zero)).toBeNull();
    expect(retryDelay(status(503), 0, { retries: 3, mayRetry: false }, NOW, zero)).toBeNull();
  });

  it("backs off 500 ms x 2^attempt capped at 10 s, plus up to 20 % jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((a) => backoffDelay(a, zero))).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(backoffDelay(0, () => 0.999)).toBe(600);
    expect(backoffDelay(6, () => 0.999)).toBe(11_998);
  });

  it("honours Retry-After on 429 and 503 only, capped at 30 s", () => {
    expect(retryDelay(status(429, "2"), 0, policy, NOW, zero)).toBe(2000);
    expect(retryDelay(status(503, "0"), 0, policy, NOW, zero)).toBe(0);
    expect(retryDelay(status(429, "45"), 0, policy, NOW, zero)).toBe(30_000);
    expect(retryDelay(status(500, "2"), 0, policy, NOW, zero)).toBe(500);
    expect(retryDelay(status(429, "soon"), 1, policy, NOW, zero)).toBe(1000);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter(" 12 ", NOW)).toBe(12_000);
    expect(parseRetryAfter(new Date(NOW + 4000).toUTCString(), NOW)).toBe(4000);
    expect(parseRetryAfter(new Date(NOW - 4000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter("-1", NOW)).toBeNull();
    expect(parseRetryAfter("", NOW)).toBeNull();
  });
});
