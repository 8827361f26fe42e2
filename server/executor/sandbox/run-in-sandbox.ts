import { failureMessages, messageOf } from "./failure-messages.ts";
import { resolveLimits } from "./limits.ts";
import { sandboxPool } from "./sandbox-threads.ts";
import type { SandboxGlobals, SandboxLimits, SandboxOutcome } from "./types.ts";

export type SandboxRun = {
  subject: "Function" | "Expression";
  /** Body of the async function to run. */
  body: string;
  /** Lines QuickJS reports before the user's first line (its wrapper plus ours). */
  lineOffset: number;
  /** Lines of the user's text; error lines past it point at its last line. */
  lineCount: number;
  globals: SandboxGlobals;
  limits?: Partial<SandboxLimits>;
};

/**
 * Runs one body in a fresh runtime on a sandbox thread. Never rejects for anything the code does.
 * The globals are turned into JSON here, on the caller's side: host values (a Date, a function) must
 * cross the way the docs say (as JSON), not the way threads copy values.
 */
export async function runInSandbox(run: SandboxRun): Promise<SandboxOutcome> {
  const limits = resolveLimits(run.limits);
  const setup = setupJson(run, limits);
  if ("error" in setup) return { ok: false, error: setup.error, logs: [] };

  const reply = await sandboxPool().run({
    subject: run.subject,
    body: run.body,
    setupJson: setup.json,
    globalNames: Object.keys(run.globals),
    lineOffset: run.lineOffset,
    lineCount: run.lineCount,
    limits,
  });
  if ("error" in reply) return { ok: false, error: reply.error, logs: reply.logs };
  let value: unknown;
  try {
    value = JSON.parse(reply.json);
  } catch {
    return { ok: false, error: "The result could not be read as JSON", logs: reply.logs };
  }
  return { ok: true, value, logs: reply.logs };
}

function setupJson(run: SandboxRun, limits: SandboxLimits): { json: string } | { error: string } {
  // The sandbox's own console cannot be replaced by an input.
  if (Object.hasOwn(run.globals, "console")) return { error: 'The global name "console" is reserved' };
  let json: string;
  try {
    // Undefined values are left out here; their names are still defined (as undefined).
    json = JSON.stringify(run.globals);
  } catch (error) {
    return { error: `The inputs of the ${run.subject.toLowerCase()} are not JSON-compatible: ${messageOf(error)}` };
  }
  // Text crosses as UTF-8 (up to 3 bytes per unit) into the module's fixed memory, and is then held as
  // a string and as parsed values: refuse what clearly cannot fit instead of exhausting the heap early.
  if ((json.length + run.body.length) * 4 > limits.memoryBytes) {
    return { error: failureMessages(run.subject, limits).memory };
  }
  return { json };
}
