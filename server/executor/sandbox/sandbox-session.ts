import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten";
import {
  ASYNC_FUNCTION_SOURCE,
  BOOTSTRAP_FILE_NAME,
  DESCRIBE_SOURCE,
  FINISH_CIRCULAR,
  FINISH_SOURCE,
  FORMAT_SOURCE,
} from "./bootstrap-source.ts";
import type { ConsoleCapture } from "./console-capture.ts";
import { type FailureMessages, isMemoryError, isStackError, notJsonMessage } from "./failure-messages.ts";
import { MAX_LOG_LINE_CHARS, MAX_STACK_BYTES } from "./limits.ts";
import { primitiveJson } from "./primitive-json.ts";
import type { SandboxJob } from "./sandbox-job.ts";

/** A job as a thread runs it: what crossed to the thread, plus its messages and console capture. */
export type SessionJob = Omit<SandboxJob, "subject"> & { messages: FailureMessages; capture: ConsoleCapture };

/** A run's result before the host parses it: the result's JSON, or why there is none. */
export type SessionResult = { json: string } | { error: string };

const CONSOLE_LEVELS = ["log", "info", "warn", "error", "debug"] as const;

type CallResult = { error: QuickJSHandle; value?: undefined } | { value: QuickJSHandle; error?: undefined };
type Step = { ok: true; value: QuickJSHandle } | { ok: false; error: string };

/**
 * One run in a fresh runtime + context, freed before returning. Synchronous: nothing the code can
 * reach waits on the host, so once the job queue is empty the result is final.
 * Throws only for host-level failures (e.g. the native stack running out inside the module); the
 * runtime is then left alone, as freeing it would trip QuickJS' own consistency checks.
 */
export function runSession(module: QuickJSWASMModule, job: SessionJob): SessionResult {
  const session = new Session(module, job);
  let abandoned = false;
  try {
    return session.run();
  } catch (error) {
    abandoned = true;
    throw error;
  } finally {
    if (!abandoned) session.dispose();
  }
}

class Session {
  private readonly runtime: QuickJSRuntime;
  private readonly ctx: QuickJSContext;
  private readonly handles: QuickJSHandle[] = [];
  private readonly helpers = new Map<string, QuickJSHandle | null>();
  private readonly deadline: number;
  private timedOut = false;
  private stringify: QuickJSHandle | undefined;

  constructor(
    module: QuickJSWASMModule,
    private readonly job: SessionJob,
  ) {
    this.deadline = Date.now() + job.limits.timeoutMs;
    this.runtime = module.newRuntime();
    this.runtime.setMemoryLimit(job.limits.memoryBytes);
    this.runtime.setMaxStackSize(MAX_STACK_BYTES);
    this.runtime.setInterruptHandler(() => {
      if (!this.timedOut && Date.now() > this.deadline) this.timedOut = true;
      return this.timedOut;
    });
    this.ctx = this.runtime.newContext();
  }

  run(): SessionResult {
    const { ctx, job } = this;
    // Set up through the API rather than by evaluating a script: parsing one would cost more than all
    // of these calls together.
    const json = this.keep(ctx.getProp(ctx.global, "JSON"));
    const parse = this.keep(ctx.getProp(json, "parse"));
    this.stringify = this.keep(ctx.getProp(json, "stringify"));
    this.installConsole();
    // Globals come last: one may shadow a built-in (say `Object`) used above.
    const values = this.step(ctx.callFunction(parse, json, this.keep(ctx.newString(job.setupJson))));
    if (!values.ok) return { error: values.error };
    for (const name of job.globalNames) {
      // A data property defined without `writable` is read-only (and not configurable).
      ctx.defineProp(ctx.global, name, { value: this.keep(ctx.getProp(values.value, name)), enumerable: true });
    }
    const asyncFunction = this.step(ctx.evalCode(ASYNC_FUNCTION_SOURCE, BOOTSTRAP_FILE_NAME));
    if (!asyncFunction.ok) return { error: asyncFunction.error };

    const compiled = this.step(ctx.callFunction(asyncFunction.value, ctx.undefined, this.keep(ctx.newString(job.body))));
    if (!compiled.ok) return { error: compiled.error };
    const started = this.step(ctx.callFunction(compiled.value, ctx.undefined));
    if (!started.ok) return { error: started.error };
    const drained = this.runtime.executePendingJobs();
    const jobError = drained.error ? this.keep(drained.error) : undefined;
    // An interrupt anywhere, even in a job the result does not wait for, fails the run: the outcome
    // must not depend on where exactly the clock ran out.
    if (this.timedOut) return { error: job.messages.timeout };

    const state = ctx.getPromiseState(started.value);
    if (state.type === "pending") return { error: jobError ? this.explain(jobError) : job.messages.neverSettled };
    if (state.type === "rejected") return { error: this.explain(this.keep(state.error)) };
    if (state.value !== started.value) this.keep(state.value);
    const result = this.toJson(state.value);
    return this.timedOut ? { error: job.messages.timeout } : result;
  }

  dispose(): void {
    for (const handle of this.handles.reverse()) if (handle.alive) handle.dispose();
    this.ctx.dispose();
    this.runtime.dispose();
  }

  private keep(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle);
    return handle;
  }

  private step(result: CallResult): Step {
    if (result.error) return { ok: false, error: this.explain(this.keep(result.error)) };
    return { ok: true, value: this.keep(result.value) };
  }

  /** A helper evaluated on first use (most runs never log, fail or return an object); null if that failed. */
  private helper(source: string, args: () => QuickJSHandle[]): QuickJSHandle | null {
    let helper = this.helpers.get(source);
    if (helper !== undefined) return helper;
    const maker = this.ctx.evalCode(source, BOOTSTRAP_FILE_NAME);
    helper = null;
    if (maker.error) maker.error.dispose();
    else {
      const made = this.ctx.callFunction(this.keep(maker.value), this.ctx.undefined, args());
      if (made.error) made.error.dispose();
      else helper = this.keep(made.value);
    }
    this.helpers.set(source, helper);
    return helper;
  }

  private toJson(value: QuickJSHandle): SessionResult {
    const { ctx, job } = this;
    const primitive = primitiveJson(ctx, value);
    if (primitive) return primitive;
    const finish = this.helper(FINISH_SOURCE, () => [this.stringify ?? ctx.undefined]);
    if (!finish) return { error: this.timedOut ? job.messages.timeout : job.messages.memory };
    const maxChars = this.keep(ctx.newNumber(job.limits.maxOutputBytes));
    const finished = this.step(ctx.callFunction(finish, ctx.undefined, value, maxChars));
    if (!finished.ok) return { error: finished.error };
    switch (ctx.typeof(finished.value)) {
      case "string":
        return { json: ctx.getString(finished.value) };
      case "number":
        if (ctx.getNumber(finished.value) === FINISH_CIRCULAR) return { error: notJsonMessage("cycle", "") };
        return { error: job.messages.tooLarge };
    }
    const [type, key] = ctx.dump(finished.value) as [string, string];
    return { error: notJsonMessage(type, key) };
  }

  /** A frozen, read-only `console` whose methods are hostLog bound to their level. */
  private installConsole(): void {
    const { ctx } = this;
    const hostLog = this.keep(ctx.newFunction("log", (level, ...args) => this.log(level, args)));
    const bind = this.keep(ctx.getProp(hostLog, "bind"));
    const console = this.keep(ctx.newObject());
    for (const level of CONSOLE_LEVELS) {
      const method = ctx.callFunction(bind, hostLog, ctx.undefined, this.keep(ctx.newString(level)));
      ctx.setProp(console, level, this.keep(ctx.unwrapResult(method)));
    }
    const object = this.keep(ctx.getProp(ctx.global, "Object"));
    this.keep(ctx.unwrapResult(ctx.callFunction(this.keep(ctx.getProp(object, "freeze")), object, console)));
    ctx.defineProp(ctx.global, "console", { value: console });
  }

  /** console.* calls land here with the call's arguments. */
  private log(level: QuickJSHandle, args: QuickJSHandle[]): CallResult | undefined {
    const { ctx, job } = this;
    if (job.capture.full) {
      job.capture.drop();
      return undefined;
    }
    const format = this.helper(FORMAT_SOURCE, () => [this.keep(ctx.newNumber(MAX_LOG_LINE_CHARS))]);
    if (!format) return { error: this.keep(ctx.newError("console is unavailable (out of memory)")) };
    // Formatting runs user code (toJSON, getters): its exceptions surface where console was called.
    const line = ctx.callFunction(format, ctx.undefined, args);
    if (line.error) return line;
    job.capture.add(ctx.getString(level), ctx.getString(line.value));
    line.value.dispose();
    return undefined;
  }

  /** The message for a thrown value; the limits' own messages take precedence. */
  private explain(error: QuickJSHandle): string {
    const { ctx, job } = this;
    if (this.timedOut) return job.messages.timeout;
    const describe = this.helper(DESCRIBE_SOURCE, () => [
      this.keep(ctx.newNumber(job.lineOffset)),
      this.keep(ctx.newNumber(job.lineCount)),
    ]);
    let text: string | undefined;
    if (describe) {
      const described = ctx.callFunction(describe, ctx.undefined, error);
      if (described.error) described.error.dispose();
      else {
        if (ctx.typeof(described.value) === "string") text = ctx.getString(described.value);
        described.value.dispose();
      }
    }
    if (this.timedOut) return job.messages.timeout;
    // describe() catches everything catchable: getting no text means the heap is exhausted.
    if (text === undefined || isMemoryError(text)) return job.messages.memory;
    if (isStackError(text)) return job.messages.stack;
    return text;
  }
}
