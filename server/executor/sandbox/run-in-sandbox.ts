import { ConsoleCapture } from "./console-capture.ts";
import { failureMessages } from "./failure-messages.ts";
import { resolveLimits } from "./limits.ts";
import { discardSandboxModule, loadSandboxModule } from "./quickjs-module.ts";
import { runSession } from "./sandbox-session.ts";
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

const utf8 = new TextEncoder();

/** Runs one body in a fresh runtime. Never rejects for anything the code does. */
export async function runInSandbox(run: SandboxRun): Promise<SandboxOutcome> {
  const limits = resolveLimits(run.limits);
  const messages = failureMessages(run.subject, limits);
  const capture = new ConsoleCapture(limits.maxLogEntries);
  const fail = (error: string): SandboxOutcome => ({ ok: false, error, logs: capture.logs() });

  const setup = setupJson(run, limits);
  if ("error" in setup) return fail(setup.error);
  let module;
  try {
    module = await loadSandboxModule(limits.memoryBytes);
  } catch (error) {
    return fail(`The JavaScript sandbox could not be loaded: ${messageOf(error)}`);
  }

  let result;
  try {
    result = runSession(module, {
      body: run.body,
      setupJson: setup.json,
      globalNames: Object.keys(run.globals),
      lineOffset: run.lineOffset,
      lineCount: run.lineCount,
      limits,
      messages,
      capture,
    });
  } catch (error) {
    // The failure happened inside the module (mid-allocation, mid-call): its memory can no longer be
    // trusted, so the next run starts from a fresh one.
    discardSandboxModule(module);
    if (error instanceof RangeError && /call stack/i.test(error.message)) return fail(messages.stack);
    return fail(`The JavaScript sandbox failed: ${messageOf(error)}`);
  }
  if ("error" in result) return fail(result.error);
  const { json } = result;
  // Each UTF-16 unit is at most 3 UTF-8 bytes: most results need no encoding to be measured.
  if (json.length * 3 > limits.maxOutputBytes && utf8.encode(json).length > limits.maxOutputBytes) {
    return fail(messages.tooLarge);
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return fail("The result could not be read as JSON");
  }
  return { ok: true, value, logs: capture.logs() };
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
