import type { TraceSpan } from "../executor/types.ts";

/** Whether a response block ran successfully in the run (its spans may be nested in loops and parallels). */
export function respondedByBlock(spans: readonly TraceSpan[]): boolean {
  const stack = [...spans];
  while (stack.length > 0) {
    const span = stack.pop() as TraceSpan;
    if (span.type === "response" && span.status === "success") return true;
    stack.push(...span.children);
  }
  return false;
}
