import { formatMebibytes } from "./limits.ts";
import type { SandboxLimits } from "./types.ts";

/** The fixed texts of failures that are not the code's own exceptions. */
export type FailureMessages = {
  timeout: string;
  memory: string;
  stack: string;
  tooLarge: string;
  neverSettled: string;
};

/** `subject` names what ran: "Function" for a function block, "Expression" for a condition. */
export function failureMessages(subject: "Function" | "Expression", limits: SandboxLimits): FailureMessages {
  return {
    timeout: `${subject} timed out after ${limits.timeoutMs} ms`,
    memory: `${subject} exceeded the memory limit (${formatMebibytes(limits.memoryBytes)})`,
    stack: `${subject} exceeded the maximum call stack size (too deep recursion)`,
    tooLarge: `The result is larger than ${limits.maxOutputBytes} bytes as JSON`,
    neverSettled: `${subject} never finished: it awaits a promise that never settles (there are no timers or I/O)`,
  };
}

/** Why a result is refused: `type` is a typeof name, `key` the property holding it ("" for the result itself). */
export function notJsonMessage(type: string, key: string): string {
  const what = type === "bigint" ? "a BigInt" : type === "cycle" ? "a circular reference" : `a ${type}`;
  if (key === "" && type !== "cycle") return `The result is not JSON-compatible: it is ${what}`;
  return `The result is not JSON-compatible: it contains ${what}${key === "" ? "" : ` (at ${JSON.stringify(key)})`}`;
}

/** QuickJS reports an exhausted heap as InternalError "out of memory" (also "... in regexp execution"). */
export function isMemoryError(described: string): boolean {
  return /^InternalError: out of memory/.test(described);
}

/** QuickJS' recursion guard: InternalError at run time, SyntaxError while parsing deeply nested code. */
export function isStackError(described: string): boolean {
  return /^(InternalError|SyntaxError): stack overflow/.test(described);
}

/** A thread that stopped while running code: crashed (e.g. out of memory) or was terminated. */
export function threadStoppedMessage(reason: string): string {
  return `The JavaScript sandbox failed: its thread stopped (${reason})`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
