import type { ConsoleEntry, SandboxLimits } from "./types.ts";

/** What crosses to a sandbox thread: everything one run needs, already checked and serialized. */
export type SandboxJob = {
  subject: "Function" | "Expression";
  /** The body of the async function to run. */
  body: string;
  /** JSON of the globals' values (undefined ones left out), and every global's name. */
  setupJson: string;
  globalNames: string[];
  /** Lines QuickJS reports before the user's first line, and the user's line count. */
  lineOffset: number;
  lineCount: number;
  limits: SandboxLimits;
};

/** A thread's answer: the result's JSON (its size already checked) or why there is none, and the logs. */
export type JobReply = { json: string; logs: ConsoleEntry[] } | { error: string; logs: ConsoleEntry[] };

/** What a thread posts: "ready" once it has loaded, then one reply per job, one job at a time. */
export type ThreadMessage = { kind: "ready" } | { kind: "reply"; reply: JobReply };
