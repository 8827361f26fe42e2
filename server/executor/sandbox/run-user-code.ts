import { FUNCTION_BODY_LINE_OFFSET } from "./bootstrap-source.ts";
import { runInSandbox } from "./run-in-sandbox.ts";
import type { SandboxGlobals, SandboxLimits, SandboxOutcome } from "./types.ts";

/** Runs `code` as the BODY of an async function: `return x` gives the value; `await` works. */
export function runUserCode(input: {
  code: string;
  globals: SandboxGlobals;
  limits?: Partial<SandboxLimits>;
}): Promise<SandboxOutcome> {
  return runInSandbox({
    subject: "Function",
    body: input.code,
    lineOffset: FUNCTION_BODY_LINE_OFFSET,
    lineCount: countLines(input.code),
    globals: input.globals,
    limits: input.limits,
  });
}

export function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}
