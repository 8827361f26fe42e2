import type { Worker } from "node:worker_threads";
import { failureMessages, messageOf, threadStoppedMessage } from "./failure-messages.ts";
import type { JobReply, SandboxJob, ThreadMessage } from "./sandbox-job.ts";

export type SandboxPoolOptions = {
  /** Most threads running at once; they are started as runs need them. */
  threads: number;
  /** Most runs waiting for a thread; beyond it runs are refused with BUSY_ERROR. */
  maxQueued: number;
  /** How long past a run's time limit its thread may stay silent before it is terminated. */
  graceMs: number;
  /** How long a new thread may take to say it is ready. */
  startTimeoutMs: number;
  spawn: () => Worker;
};

export const BUSY_ERROR = "The sandbox is busy";
export const CLOSED_ERROR = "The sandbox was shut down";

/** setTimeout fires at once for delays above this (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

type Pending = { job: SandboxJob; resolve: (reply: JobReply) => void };

type Thread = {
  worker: Worker;
  ready: boolean;
  /** The run it is working on. */
  current: Pending | undefined;
  /** Start-up or run watchdog. Being referenced, it is also what keeps the process alive meanwhile. */
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Why it failed, from its "error" event (its "exit" event follows). */
  failure: string | undefined;
  /** Left the pool: its events no longer matter. */
  gone: boolean;
};

/**
 * Worker threads that run sandbox jobs, one job per thread at a time, so that user code never holds
 * the main thread. Runs wait in a bounded queue when every thread is busy. A thread that stays silent
 * past its run's time limit plus a grace period is terminated, and one that stops (crash) is dropped;
 * either way its run gets an error and a new thread is started when one is needed.
 */
export class SandboxPool {
  private readonly threads = new Set<Thread>();
  private readonly idle: Thread[] = [];
  private readonly queue: Pending[] = [];
  private starting = 0;
  private closed = false;
  private readonly options: SandboxPoolOptions;

  constructor(options: SandboxPoolOptions) {
    this.options = { ...options };
  }

  /** Resolves to the thread's reply, or to an error reply (busy, timed out, crashed, shut down). */
  run(job: SandboxJob): Promise<JobReply> {
    if (this.closed) return Promise.resolve({ error: CLOSED_ERROR, logs: [] });
    const thread = this.idle.pop();
    if (thread === undefined && this.queue.length >= this.options.maxQueued) {
      return Promise.resolve({ error: BUSY_ERROR, logs: [] });
    }
    return new Promise<JobReply>((resolve) => {
      if (thread !== undefined) this.dispatch(thread, { job, resolve });
      else {
        this.queue.push({ job, resolve });
        this.grow();
      }
    });
  }

  /** Changes the most threads; threads already running above it are kept until they stop. */
  setThreads(threads: number): void {
    this.options.threads = threads;
    this.grow();
  }

  /** Threads (starting ones included), idle and busy threads, and waiting runs: for tests and diagnostics. */
  stats(): { threads: number; idle: number; busy: number; queued: number } {
    let busy = 0;
    for (const thread of this.threads) if (thread.current !== undefined) busy++;
    return { threads: this.threads.size, idle: this.idle.length, busy, queued: this.queue.length };
  }

  /** Stops every thread; runs in flight or waiting get CLOSED_ERROR, and later runs too. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.resolve({ error: CLOSED_ERROR, logs: [] });
    const stopping: Array<Promise<unknown>> = [];
    for (const thread of [...this.threads]) {
      const pending = this.remove(thread);
      pending?.resolve({ error: CLOSED_ERROR, logs: [] });
      stopping.push(Promise.resolve(thread.worker.terminate()));
    }
    await Promise.all(stopping);
  }

  /** Starts threads for waiting runs that no starting thread will take, up to the most allowed. */
  private grow(): void {
    while (this.queue.length > this.starting && this.threads.size < this.options.threads) this.start();
  }

  private start(): void {
    let worker: Worker;
    try {
      worker = this.options.spawn();
    } catch (error) {
      this.failQueue(messageOf(error));
      return;
    }
    const thread: Thread = {
      worker,
      ready: false,
      current: undefined,
      timer: undefined,
      failure: undefined,
      gone: false,
    };
    this.threads.add(thread);
    this.starting++;
    thread.timer = setTimeout(() => {
      this.remove(thread);
      void thread.worker.terminate();
      this.failQueue(`the thread did not start within ${this.options.startTimeoutMs} ms`);
    }, this.options.startTimeoutMs);
    thread.worker.on("message", (message: ThreadMessage) => this.received(thread, message));
    thread.worker.on("error", (error: unknown) => {
      thread.failure ??= messageOf(error);
    });
    thread.worker.on("exit", (code: number) => this.exited(thread, code));
    // Only after the listeners: adding a "message" listener refs the thread again (Node).
    thread.worker.unref();
  }

  private dispatch(thread: Thread, pending: Pending): void {
    thread.current = pending;
    const waitMs = Math.min(pending.job.limits.timeoutMs + this.options.graceMs, MAX_TIMER_MS);
    thread.timer = setTimeout(() => this.hung(thread), waitMs);
    thread.worker.postMessage(pending.job);
  }

  private received(thread: Thread, message: ThreadMessage): void {
    if (thread.gone) return;
    clearTimeout(thread.timer);
    thread.timer = undefined;
    if (message.kind === "ready") {
      thread.ready = true;
      this.starting--;
    }
    const done = thread.current;
    thread.current = undefined;
    this.next(thread);
    if (done !== undefined && message.kind === "reply") done.resolve(message.reply);
  }

  /** Gives a free thread the oldest waiting run, or parks it. */
  private next(thread: Thread): void {
    const pending = this.queue.shift();
    if (pending !== undefined) this.dispatch(thread, pending);
    else this.idle.push(thread);
  }

  /** The run's time limit and the grace period passed without an answer. */
  private hung(thread: Thread): void {
    const pending = this.remove(thread);
    void thread.worker.terminate();
    if (pending !== undefined) pending.resolve({ error: failureMessages(pending.job.subject, pending.job.limits).timeout, logs: [] });
    this.grow();
  }

  private exited(thread: Thread, code: number): void {
    if (thread.gone) return;
    const wasReady = thread.ready;
    const pending = this.remove(thread);
    const reason = thread.failure ?? `exit code ${code}`;
    if (pending !== undefined) pending.resolve({ error: threadStoppedMessage(reason), logs: [] });
    // A thread that cannot even start would fail the same way again: the waiting runs fail now, and
    // the next run tries a new thread.
    if (!wasReady) this.failQueue(reason);
    else this.grow();
  }

  private failQueue(reason: string): void {
    const error = `The JavaScript sandbox could not be loaded: ${reason}`;
    for (const pending of this.queue.splice(0)) pending.resolve({ error, logs: [] });
  }

  /** Takes a thread out of the pool; returns the run it was working on. */
  private remove(thread: Thread): Pending | undefined {
    thread.gone = true;
    clearTimeout(thread.timer);
    this.threads.delete(thread);
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
    if (!thread.ready) this.starting--;
    const pending = thread.current;
    thread.current = undefined;
    return pending;
  }
}
