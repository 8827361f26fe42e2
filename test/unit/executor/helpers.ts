import { ManualClock } from "../../../server/clock.ts";
export { closedPort, type ReceivedRequest, type Receiver, startReceiver, useReceiver } from "../../helpers/receiver.ts";
import type { Block, ExecutorDeps, WorkflowState } from "../../../server/executor/types.ts";
import type { Logger } from "../../../server/logger.ts";
import type { Config } from "../../../server/config.ts";
import { createModelGateway } from "../../../server/executor/providers/create-model-gateway.ts";
import type { ResolveProviderKey } from "../../../server/executor/providers/resolve-provider-key.ts";
import { createGuardedFetch } from "../../../server/security/create-guarded-fetch.ts";
import type { GuardedFetch } from "../../../server/security/guarded-fetch.ts";

export type TestDeps = { deps: ExecutorDeps; clock: ManualClock; sleeps: number[]; logs: string[] };

const sharedFetch = createGuardedFetch({ allowPrivateNetwork: true });

/** Model providers no test reaches: no keys, so a model call fails with "No API key ...". */
const NO_MODEL_PROVIDERS: Config["modelProviders"] = {
  openai: { baseUrl: "http://127.0.0.1:9/v1" },
  anthropic: { baseUrl: "http://127.0.0.1:9" },
  google: { baseUrl: "http://127.0.0.1:9" },
};

/**
 * Executor deps for tests: the real guarded fetch (private network allowed, to reach the local
 * receiver), a manual clock, and a sleep that records each delay and moves the clock instead of waiting.
 * Model calls go to `modelProviders` (e.g. a fake provider's `config`), with the same fetch and sleep.
 */
export function testDeps(
  options: {
    random?: number;
    fetch?: GuardedFetch;
    modelProviders?: Config["modelProviders"];
    resolveProviderKey?: ResolveProviderKey;
  } = {},
): TestDeps {
  const clock = new ManualClock();
  const sleeps: number[] = [];
  const logs: string[] = [];
  const record = (msg: string, fields?: Record<string, unknown>) => logs.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  const logger: Logger = { debug: record, info: record, warn: record, error: record };
  const fetch = options.fetch ?? sharedFetch;
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    clock.advance(ms);
  };
  const random = () => options.random ?? 0;
  const models = createModelGateway({
    fetch,
    config: { modelProviders: options.modelProviders ?? NO_MODEL_PROVIDERS },
    resolveProviderKey: options.resolveProviderKey,
    sleep,
    random,
    clock,
    logger,
  });
  const deps: ExecutorDeps = { fetch, clock, logger, sleep, random, models };
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
