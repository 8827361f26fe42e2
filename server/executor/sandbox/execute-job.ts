import { ConsoleCapture } from "./console-capture.ts";
import { failureMessages, messageOf } from "./failure-messages.ts";
import { discardSandboxModule, loadSandboxModule } from "./quickjs-module.ts";
import type { JobReply, SandboxJob } from "./sandbox-job.ts";
import { runSession } from "./sandbox-session.ts";

const utf8 = new TextEncoder();

/** Runs one job in a fresh runtime, inside a sandbox thread. Never rejects for anything the code does. */
export async function executeJob(job: SandboxJob): Promise<JobReply> {
  const { limits } = job;
  const messages = failureMessages(job.subject, limits);
  const capture = new ConsoleCapture(limits.maxLogEntries);
  const fail = (error: string): JobReply => ({ error, logs: capture.logs() });

  let module;
  try {
    module = await loadSandboxModule(limits.memoryBytes);
  } catch (error) {
    return fail(`The JavaScript sandbox could not be loaded: ${messageOf(error)}`);
  }

  let result;
  try {
    result = runSession(module, { ...job, messages, capture });
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
  return { json, logs: capture.logs() };
}
