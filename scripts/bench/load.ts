import http from "node:http";

export type LoadResult = { requests: number; errors: number; seconds: number; rps: number; p50: number; p99: number; statuses: Record<number, number> };

/**
 * Keeps `concurrency` requests in flight against one URL for `seconds` (bounded in time and count),
 * over keep-alive connections, and reports throughput and latency percentiles in milliseconds.
 */
export async function runLoad(options: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  concurrency: number;
  seconds: number;
  maxRequests?: number;
}): Promise<LoadResult> {
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
