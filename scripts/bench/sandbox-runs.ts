// Cost of one sandbox run as the caller sees it: on sandbox threads (today's path) and, for
// comparison, run inline on the calling thread (what a thread does per job, i.e. the cost before
// threads). Usage: node --import tsx scripts/bench/sandbox-runs.ts [-- --runs 2000 --rounds 3]
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { executeJob } from "../../server/executor/sandbox/execute-job.ts";
import { closeSandbox, evaluateExpression, runUserCode, type SandboxOutcome } from "../../server/executor/sandbox/index.ts";
import { resolveLimits } from "../../server/executor/sandbox/limits.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "2000" }, rounds: { type: "string", default: "3" } } });
const runs = Number(values.runs);
const limits = resolveLimits(undefined);

type Case = { label: string; threads: (i: number) => Promise<SandboxOutcome>; inline: (i: number) => Promise<unknown> };

const inline = (subject: "Function" | "Expression", body: string, globals: Record<string, unknown>) =>
  executeJob({ subject, body, setupJson: JSON.stringify(globals), globalNames: Object.keys(globals), lineOffset: 2, lineCount: 1, limits }).then(
    (reply) => ("json" in reply ? JSON.parse(reply.json) : reply.error),
  );

const cases: Case[] = [
  {
    label: "small function",
    threads: (i) => runUserCode({ code: "return input.n * 2", globals: { input: { n: i } } }),
    inline: (i) => inline("Function", "return input.n * 2", { input: { n: i } }),
  },
  {
    label: "object result + log",
    threads: (i) => runUserCode({ code: "console.log(input.n); return { n: input.n }", globals: { input: { n: i } } }),
    inline: (i) => inline("Function", "console.log(input.n); return { n: input.n }", { input: { n: i } }),
  },
  {
    label: "condition",
    threads: (i) => evaluateExpression({ expression: "x > 3 && y === 'a'", globals: { x: i, y: "a" } }),
    inline: (i) => inline("Expression", "return (x > 3 && y === 'a'\n);", { x: i, y: "a" }),
  },
];

/** Wall time per run, and how long the calling thread's event loop was busy per run. */
async function time(once: (i: number) => Promise<unknown>, inFlight: number): Promise<{ wall: number; busy: number }> {
  let next = 0;
  const started = process.hrtime.bigint();
  const loop = performance.eventLoopUtilization();
  const lane = async () => {
    while (next < runs) await once(next++);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const { active } = performance.eventLoopUtilization(loop);
  return { wall: Number(process.hrtime.bigint() - started) / 1000 / runs, busy: (active * 1000) / runs };
}

const us = (t: { wall: number; busy: number }) => `${t.wall.toFixed(0)} µs (main thread busy ${t.busy.toFixed(0)} µs)`;

for (const c of cases) {
  await time(c.threads, 1); // warm-up: threads started, modules compiled, JIT
  await time(c.inline, 1);
}
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const c of cases) {
    const inlineUs = await time(c.inline, 1);
    const threadUs = await time(c.threads, 1);
    console.log(`round ${round} ${c.label}, one at a time: inline ${us(inlineUs)}, on a thread ${us(threadUs)} per run`);
  }
  console.log(`round ${round} small function, 8 in flight on threads: ${us(await time(cases[0].threads, 8))} per run`);
}
await closeSandbox();
