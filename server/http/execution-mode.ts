import { AppError } from "../errors.ts";

/**
 * Whether an execute request asks to be queued: header `X-Execution-Mode: async|sync` (any case),
 * else the body's `async` flag, else synchronous. The header wins when both are given.
 */
export function wantsAsync(headers: Headers, bodyAsync: boolean | undefined): boolean {
  const mode = headers.get("x-execution-mode")?.trim().toLowerCase();
  if (mode === undefined || mode === "") return bodyAsync === true;
  if (mode === "async") return true;
  if (mode === "sync") return false;
  throw new AppError(400, "INVALID_PARAMETER", "X-Execution-Mode must be async or sync", { parameter: "X-Execution-Mode" });
}

/** The service's own base URL: PUBLIC_URL when set, else what the caller used to reach it. */
export function publicBaseUrl(publicUrl: string | undefined, headers: Headers, requestUrl?: string): string {
  if (publicUrl) return publicUrl;
  if (requestUrl) return new URL(requestUrl).origin;
  return `http://${headers.get("host") ?? "localhost"}`;
}
