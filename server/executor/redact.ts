import { isSensitiveHeader } from "../security/sensitive-headers.ts";

export { isSensitiveHeader };
export const REDACTED = "[redacted]";

/**
 * A copy of a header collection (object map or `{key, value}` rows) with sensitive values replaced;
 * the same object when nothing needs hiding, so the common case allocates nothing.
 */
export function redactHeaders<T>(headers: T): T {
  if (headers === null || typeof headers !== "object") return headers;
  if (Array.isArray(headers)) {
    const hit = headers.some((row) => isSensitiveHeader(String((row as { key?: unknown } | null)?.key ?? "")));
    if (!hit) return headers;
    return headers.map((row) =>
      isSensitiveHeader(String((row as { key?: unknown } | null)?.key ?? "")) ? { ...row, value: REDACTED } : row,
    ) as T;
  }
  const entries = Object.entries(headers);
  if (!entries.some(([k]) => isSensitiveHeader(k))) return headers;
  return Object.fromEntries(entries.map(([k, v]) => [k, isSensitiveHeader(k) ? REDACTED : v])) as T;
}
