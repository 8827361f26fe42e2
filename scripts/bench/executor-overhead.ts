// Benchmark of the executor's own cost per block, in-process (no HTTP, no database, no sandbox):
// (1) a 100-block linear workflow of variables blocks, each reading the previous one's value;
// (2) a for loop of 100 iterations over one such block (the cost of an iteration with its span).
// The plan is compiled on the first run and cached, as for a deployed state.
// Usage: node --import tsx scripts/bench/executor-overhead.ts [-- --runs 2000 --blocks 100]
import { parseArgs } from "node:util";
import { systemClock } from "../../server/clock.ts";
import { runWorkflow } from "../../server/executor/index.ts";
import type { Block, Edge, ExecutorDeps, WorkflowState } from "../../server/executor/types.ts";
import type { Logger } from "../../server/logger.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "2000" }, blocks: { type: "string", default: "100" } },
});
const runs = Number(values.runs);
const size = Number(values.blocks);

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const deps: ExecutorDeps = {
  fetch: () => Promise.reject(new Error("no network in this benchmark")),
  clock: systemClock,
  logger: quiet,
  sleep: () => Promise.resolve(),
  random: Math.random,
  models: { complete: () => Promise.reject(new Error("no models in this benchmark")) },
};

function linear(n: number): WorkflowState {
  const blocks: Record<string, Block> = { start: { type: "start", name: "Start" } };
  const edges: Edge[] = [];
  let previous = "start";
  for (let i = 0; i < n; i++) {
    const id = `b${i}`;
    const read = i === 0 ? "<start.n>" : `<step ${i - 1}.n>`;
    blocks[id] = { type: "variables", name: `Step ${i}`, params: { variables: { n: read, label: `step ${i} of <start.n>` } } };
    edges.push({ source: previous, target: id });
    previous = id;
  }
  return { blocks, edges, loops: {}, parallels: {} };
}

function loop(iterations: number): WorkflowState {
  return {
    blocks: {
      start: { type: "start", name: "Start" },
      body: { type: "variables", name: "Body", params: { variables: { n: "<loop.index>", input: "<start.n>" } } },
    },
    edges: [{ source: "start", target: "body" }],
    loops: { l: { nodes: ["body"], loopType: "for", iterations } },
    parallels: {},
  };
}

async function measure(label: string, state: WorkflowState, perRun: number): Promise<void> {
  const once = async (i: number) => {
    const result = await runWorkflow({ state, input: { n: i }, deps, executionId: "exec_bench" });
    if (!result.success) throw new Error(`${label}: ${result.error}`);
  };
  for (let i = 0; i < Math.min(200, runs); i++) await once(i); // warm-up (and plan compile)
  const started = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) await once(i);
  const totalUs = Number(process.hrtime.bigint() - started) / 1000;
  const perBlock = totalUs / runs / perRun;
  console.log(`${label}: ${(totalUs / runs).toFixed(1)} µs per run, ${perBlock.toFixed(2)} µs per block (${runs} runs)`);
}

await measure(`linear ${size} blocks`, linear(size), size + 1);
await measure(`for loop ${size} iterations`, loop(size), size + 1);
