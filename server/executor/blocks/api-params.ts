import { findReferences } from "../references.ts";
import { checkBoolean, checkInteger, checkKeyValues } from "./param-checks.ts";

export const API_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"] as const;
export type ApiMethod = (typeof API_METHODS)[number];

export const API_DEFAULTS = {
  method: "GET" as ApiMethod,
  timeoutMs: 30_000,
  retries: 3,
  retryNonIdempotent: false,
  continueOnError: false,
};
export const MAX_RETRIES = 10;
export const MAX_TIMEOUT_MS = 300_000;

/** The method as sent (case-insensitive in params), or null when it is not one of API_METHODS. */
export function apiMethod(value: unknown): ApiMethod | null {
  if (value === undefined) return API_DEFAULTS.method;
  if (typeof value !== "string") return null;
  const upper = value.toUpperCase();
  return (API_METHODS as readonly string[]).includes(upper) ? (upper as ApiMethod) : null;
}

export function validateApiParams(params: Record<string, unknown>): string[] {
  const issues: string[] = [];
  const url = params.url;
  if (typeof url !== "string" || url.trim() === "") {
    issues.push("url is required (a non-empty string)");
  } else if (findReferences(url).length === 0) {
    // A static URL can be checked now; path parameters `{id}` are filled at run time.
    const probe = url.replace(/\{[^{}/]*\}/g, "x");
    if (!/^https?:\/\//i.test(probe) || !URL.canParse(probe)) issues.push(`url "${url}" is not a valid http(s) URL`);
  }
  if (apiMethod(params.method) === null) {
    issues.push(`method must be one of ${API_METHODS.join(", ")} (got ${JSON.stringify(params.method)})`);
  }
  checkKeyValues(params, "pathParams", issues);
  checkKeyValues(params, "query", issues);
  checkKeyValues(params, "headers", issues, { headerNames: true });
  checkInteger(params, "retries", 0, MAX_RETRIES, issues);
  checkInteger(params, "timeoutMs", 1, MAX_TIMEOUT_MS, issues);
  checkBoolean(params, "retryNonIdempotent", issues);
  checkBoolean(params, "continueOnError", issues);
  return issues;
}
