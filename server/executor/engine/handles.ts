/** How an edge's sourceHandle takes part in routing. */
export type HandleKind = "plain" | "error" | "condition" | "route" | "unknown";

export const ERROR_HANDLE = "error";
export const CONDITION_PREFIX = "condition-";
export const ROUTE_PREFIX = "route-";
export const ELSE_HANDLE = "condition-else";

/** No handle (or `source`) is a plain edge, followed whenever its block succeeds. */
export function handleKind(handle: unknown): HandleKind {
  if (handle === undefined || handle === null || handle === "source") return "plain";
  if (handle === ERROR_HANDLE) return "error";
  if (typeof handle !== "string") return "unknown";
  if (handle.startsWith(CONDITION_PREFIX) && handle.length > CONDITION_PREFIX.length) return "condition";
  if (handle.startsWith(ROUTE_PREFIX) && handle.length > ROUTE_PREFIX.length) return "route";
  return "unknown";
}
