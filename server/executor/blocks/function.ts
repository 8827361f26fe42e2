import { type ConsoleEntry, runUserCode } from "../sandbox/index.ts";
import { isSandboxCode } from "../template.ts";
import type { BlockHandler } from "./block-handler.ts";

/** Read as `<fn.result>` (the returned JSON value) and `<fn.stdout>` (console lines). */
export type FunctionOutput = { result: unknown; stdout: string };

/**
 * Runs JavaScript (an async function body) in the sandbox. References in the code are globals bound
 * to their values (never pasted in as text); `input`, `variable`, and inside sections `loop` /
 * `parallel` are globals too.
 */
export const functionBlock: BlockHandler = {
  codePaths: ["code"],
  validate(params) {
    const issues: string[] = [];
    if (typeof params.code !== "string" || params.code.trim() === "") issues.push("code is required (a JavaScript function body)");
    return issues;
  },
  async run(params) {
    const code = params.code;
    if (!isSandboxCode(code)) return { output: null, error: "code is required (a JavaScript function body)" };
    const traceInput = { code: code.text };
    const outcome = await runUserCode({ code: code.source, globals: code.globals });
    const stdout = outcome.logs.map(consoleLine).join("\n");
    if (!outcome.ok) return { output: { result: null, stdout } satisfies FunctionOutput, error: outcome.error, traceInput };
    return { output: { result: outcome.value ?? null, stdout } satisfies FunctionOutput, error: null, traceInput };
  },
};

/** `console.log` lines as they are; other levels prefixed, e.g. `[warn] low balance`. */
function consoleLine(entry: ConsoleEntry): string {
  return entry.level === "log" ? entry.message : `[${entry.level}] ${entry.message}`;
}
