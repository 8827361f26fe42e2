import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One request repeated: `concurrency` in flight for `seconds`. */
export type LoadOptions = {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  concurrency: number;
  seconds: number;
};

export type LoadResult = { requests: number; errors: number; seconds: number; rps: number; p50: number; p99: number; statuses: Record<number, number> };

/**
 * Keeps `concurrency` requests in flight against one URL for `seconds` (bounded in time and count),
 * over keep-alive connections, and reports throughput and latency percentiles in milliseconds.
 */
export async function runLoad(options: LoadOptions & { maxRequests?: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const url = new URL(options.url);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  let started = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const max = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.request(
        url,
        { method: options.method ?? "GET", headers: options.headers, agent },
        (res) => {
          res.resume();
          res.on("end", () => {
            latencies.push(performance.now() - t0);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on("error", () => {
        errors++;
        resolve();
      });
      if (options.body) req.write(options.body);
      req.end();
    });
  const t0 = performance.now();
  const worker = async () => {
    while (performance.now() < deadline && started < max) {
      started++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: pct(50), p99: pct(99), statuses };
}

/** Latency percentiles of a list of durations in milliseconds. */
export function percentiles(samples: number[]): { p50: number; p99: number; mean: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  return { p50: at(50), p99: at(99), mean: s.reduce((a, b) => a + b, 0) / (s.length || 1) };
}

/** True when Debian's `wrk` is installed (`apt-get install wrk`): a lighter load generator than Node. */
export function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (e) {
    // wrk --version exits 1 after printing its version.
    return (e as { status?: number }).status === 1;
  }
}

/**
 * The same measurement with wrk (one thread), parsed from its --latency report. Asynchronous, so
 * that servers living in this process (e.g. a benchmark's API target) go on answering.
 */
export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "wf-wrk-"));
  const script = join(dir, "request.lua");
  const lines = [`wrk.method = ${JSON.stringify(options.method ?? "GET")}`];
  if (options.body) lines.push(`wrk.body = ${JSON.stringify(options.body)}`);
  for (const [k, v] of Object.entries(options.headers ?? {})) lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  writeFileSync(script, `${lines.join("\n")}\n`);
  const { stdout: out } = await promisify(execFile)(
    "wrk",
    ["-t1", `-c${options.concurrency}`, `-d${options.seconds}s`, "--latency", "-s", script, options.url],
    { encoding: "utf8" },
  );
  rmSync(dir, { recursive: true, force: true });
  const ms = (label: string) => {
    const m = out.match(new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`));
    if (!m) return 0;
    const v = Number(m[1]);
    return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
  };
  const requests = Number(out.match(/(\d+) requests in/)?.[1] ?? 0);
  const non2xx = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  const errors = (out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/)?.slice(1) ?? []).reduce(
    (a, b) => a + Number(b),
    0,
  );
  return {
    requests,
    errors,
    seconds: options.seconds,
    rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p50: ms("50"),
    p99: ms("99"),
    statuses: { 200: requests - non2xx, 0: non2xx },
  };
}

/**
 * CPU time (user + system, ms) used so far by a process and all its descendants, from /proc (Linux):
 * the service's own cost per request, which stays comparable when the machine's speed drifts.
 */
export function processTreeCpuMs(rootPid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name (which may contain spaces) start after the last ')'.
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended while we looked.
    }
  }
  let ticks = 0;
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    ticks += stats.get(pid)?.ticks ?? 0;
    for (const [child, s] of stats) if (s.ppid === pid) pending.push(child);
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
