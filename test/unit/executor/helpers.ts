import { ManualClock } from "../../../server/clock.ts";
export { closedPort, type ReceivedRequest, type Receiver, startReceiver, useReceiver } from "../../helpers/receiver.ts";
import type { Block, ExecutorDeps, WorkflowState } from "../../../server/executor/types.ts";
import type { Logger } from "../../../server/logger.ts";
import { createGuardedFetch } from "../../../server/security/create-guarded-fetch.ts";
import type { GuardedFetch } from "../../../server/security/guarded-fetch.ts";

export type TestDeps = { deps: ExecutorDeps; clock: ManualClock; sleeps: number[]; logs: string[] };

const sharedFetch = createGuardedFetch({ allowPrivateNetwork: true });

/**
 * Executor deps for tests: the real guarded fetch (private network allowed, to reach the local
 * receiver), a manual clock, and a sleep that records each delay and moves the clock instead of waiting.
 */
export function testDeps(options: { random?: number; fetch?: GuardedFetch } = {}): TestDeps {
  const clock = new ManualClock();
  const sleeps: number[] = [];
  const logs: string[] = [];
  const record = (msg: string, fields?: Record<string, unknown>) => logs.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  const logger: Logger = { debug: record, info: record, warn: record, error: record };
  const deps: ExecutorDeps = {
    fetch: options.fetch ?? sharedFetch,
    clock,
    logger,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
    random: () => options.random ?? 0,
  };
  return { deps, clock, sleeps, logs };
}

/** A state whose blocks run one after the other in the order given. */
export function chain(...blocks: Array<[string, Block]>): WorkflowState {
  const edges = blocks.slice(1).map(([id], i) => ({ id: `e${i + 1}`, source: blocks[i][0], target: id }));
  return { blocks: Object.fromEntries(blocks), edges, loops: {}, parallels: {} };
}

export const start = (): [string, Block] => ["start", { type: "start", name: "Start" }];
export const api = (params: Record<string, unknown>, name = "API", id = "api"): [string, Block] => [
  id,
  { type: "api", name, params },
];
export const response = (params: Record<string, unknown>, id = "response"): [string, Block] => [
  id,
  { type: "response", name: "Response", params },
];
