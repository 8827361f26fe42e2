/** How a node of a graph ended, which decides the edges it follows. */
export type NodeOutcome =
  /** Succeeded; `handle` is the branch it chose (condition, router). */
  | { readonly status: "ok"; readonly handle?: string }
  /** Failed, and its error edges took over. */
  | { readonly status: "handled" }
  /** Failed with continueOnError: its plain edges are followed as on success. */
  | { readonly status: "continued" }
  /** Failed: the run stops. */
  | { readonly status: "failed"; readonly message: string };

export const SUCCEEDED: NodeOutcome = { status: "ok" };
export const HANDLED: NodeOutcome = { status: "handled" };
export const CONTINUED: NodeOutcome = { status: "continued" };

/** Whether an edge (null = plain, else its sourceHandle) is followed after this outcome. */
export function follows(handle: string | null, outcome: NodeOutcome): boolean {
  switch (outcome.status) {
    case "ok":
      return handle === null || (handle !== "error" && handle === outcome.handle);
    case "handled":
      return handle === "error";
    case "continued":
      return handle === null;
    case "failed":
      return false;
  }
}

/** What a graph, iteration, branch or section reports when it was cut short by a failure elsewhere. */
export const STOPPED = "Stopped: the run failed";
