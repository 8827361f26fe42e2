/** One captured console call, formatted like Node prints it. */
export type ConsoleEntry = { level: "log" | "info" | "warn" | "error" | "debug"; message: string };

/** Bounds of one sandbox run. */
export type SandboxLimits = {
  /** Wall-clock budget of the whole run (bootstrap, user code, awaited jobs, serializing the result). */
  timeoutMs: number;
  /** Heap limit of the run's QuickJS runtime. */
  memoryBytes: number;
  /** Console lines kept; later lines are counted in one "... N more lines dropped" entry. */
  maxLogEntries: number;
  /** Size cap of the returned value as UTF-8 JSON. */
  maxOutputBytes: number;
};

export type SandboxOutcome =
  | { ok: true; value: unknown; logs: ConsoleEntry[] }
  | { ok: false; error: string; logs: ConsoleEntry[] };

/** Values the code sees as read-only globals, by name (JSON-compatible; passed as deep copies). */
export type SandboxGlobals = Record<string, unknown>;
