import { FUNCTION_BODY_LINE_OFFSET } from "./bootstrap-source.ts";
import { runInSandbox } from "./run-in-sandbox.ts";
import { countLines } from "./run-user-code.ts";
import type { SandboxGlobals, SandboxLimits, SandboxOutcome } from "./types.ts";

/**
 * Evaluates one JavaScript expression (e.g. a condition `x > 3 && y === "a"`). The value comes back
 * as JSON like a function's result (undefined -> null); a condition takes its truthiness.
 */
export function evaluateExpression(input: {
  expression: string;
  globals: SandboxGlobals;
  limits?: Partial<SandboxLimits>;
}): Promise<SandboxOutcome> {
  if (input.expression.trim() === "") {
    return Promise.resolve({ ok: false, error: "SyntaxError: the expression is empty", logs: [] });
  }
  // The newline before ")" keeps a trailing line comment from swallowing it.
  return runInSandbox({
    subject: "Expression",
    body: `return (${input.expression}\n);`,
    lineOffset: FUNCTION_BODY_LINE_OFFSET,
    lineCount: countLines(input.expression),
    globals: input.globals,
    limits: input.limits,
  });
}
