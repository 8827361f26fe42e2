// Cost of one sandbox run as the caller sees it (sequential, one at a time) and throughput with
// several runs in flight. Usage: node --import tsx scripts/bench/sandbox-runs.ts [-- --runs 2000]
import { parseArgs } from "node:util";
import * as sandbox from "../../server/executor/sandbox/index.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "2000" } } });
const runs = Number(values.runs);

const small = (i: number) => sandbox.runUserCode({ code: "return input.n * 2", globals: { input: { n: i } } });
const object = (i: number) =>
  sandbox.runUserCode({ code: "console.log(input.n); return { n: input.n }", globals: { input: { n: i } } });
const condition = (i: number) => sandbox.evaluateExpression({ expression: "x > 3 && y === 'a'", globals: { x: i, y: "a" } });

async function sequential(label: string, once: (i: number) => Promise<sandbox.SandboxOutcome>): Promise<void> {
  for (let i = 0; i < 200; i++) await once(i); // warm-up (module compile, JIT)
  const started = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) {
    const outcome = await once(i);
    if (!outcome.ok) throw new Error(`${label}: ${outcome.error}`);
  }
  const us = Number(process.hrtime.bigint() - started) / 1000 / runs;
  console.log(`${label}: ${us.toFixed(0)} µs per run (sequential, ${runs} runs)`);
}

async function concurrent(label: string, inFlight: number, once: (i: number) => Promise<sandbox.SandboxOutcome>) {
  let next = 0;
  const started = process.hrtime.bigint();
  const lane = async () => {
    while (next < runs) {
      const outcome = await once(next++);
      if (!outcome.ok) throw new Error(`${label}: ${outcome.error}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const us = Number(process.hrtime.bigint() - started) / 1000 / runs;
  console.log(`${label}: ${us.toFixed(0)} µs per run (${inFlight} in flight, ${runs} runs)`);
}

await sequential("small function", small);
await sequential("object result + log", object);
await sequential("condition", condition);
await concurrent("small function", 8, small);
const close = (sandbox as { closeSandbox?: () => Promise<void> }).closeSandbox;
if (close) await close();
