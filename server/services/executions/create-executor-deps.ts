import type { AppDeps } from "../../context.ts";
import type { ExecutorDeps } from "../../executor/types.ts";
import type { Logger } from "../../logger.ts";

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What the executor may touch, built from the app's services. `sleep` and `random` are real unless
 * overridden (tests of retry timing pass a fake sleep); log lines carry the execution's ids.
 */
export function createExecutorDeps(
  ctx: Pick<AppDeps, "fetch" | "clock" | "logger" | "models">,
  fields: Record<string, string>,
  overrides: Partial<ExecutorDeps> = {},
): ExecutorDeps {
  return {
    fetch: ctx.fetch,
    clock: ctx.clock,
    logger: withFields(ctx.logger, fields),
    sleep: realSleep,
    random: Math.random,
    models: ctx.models,
    ...overrides,
  };
}

function withFields(logger: Logger, fields: Record<string, string>): Logger {
  return {
    debug: (msg, f) => logger.debug(msg, { ...fields, ...f }),
    info: (msg, f) => logger.info(msg, { ...fields, ...f }),
    warn: (msg, f) => logger.warn(msg, { ...fields, ...f }),
    error: (msg, f) => logger.error(msg, { ...fields, ...f }),
  };
}
