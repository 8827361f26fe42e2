import type { TraceSpan } from "../types.ts";
import { type NodeOutcome, STOPPED, SUCCEEDED } from "./outcome.ts";
import type { Scope } from "./scope.ts";
import { closeSpan } from "./spans.ts";

/**
 * Ends a loop or parallel: records its `{ results }` as its output and closes its span. A failure is
 * the body block's own message when one failed (`inner`), else `<Kind> "<id>" failed: <error>`.
 */
export function finishSection(
  section: { kind: "Loop" | "Parallel"; id: string; index: number },
  scope: Scope,
  span: TraceSpan,
  startMs: number,
  results: unknown[],
  error: string | null,
  inner: string | null,
): NodeOutcome {
  const run = scope.run;
  const output = { results };
  scope.values[section.index] = output;
  span.output = output;
  closeSpan(span, startMs, run.deps.clock.now());
  if (error !== null) {
    span.status = "error";
    span.error = error;
    const message = inner ?? (error === STOPPED ? STOPPED : `${section.kind} "${section.id}" failed: ${error}`);
    run.failure ??= message;
    return { status: "failed", message };
  }
  run.lastOutput = output;
  return SUCCEEDED;
}
