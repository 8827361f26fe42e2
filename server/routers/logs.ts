import { logs as c } from "../../contract/index.ts";
import { enforceApiRateLimit } from "../limits/api-rate-limit.ts";
import { getExecution } from "../services/logs/get-execution.ts";
import { getLog } from "../services/logs/get-log.ts";
import { listLogs } from "../services/logs/list-logs.ts";
import { apiKeyProcedure, router } from "../trpc.ts";

// Spends a token before the input is parsed, so every answer after authentication (a 400 too)
// carries the rate-limit headers: 401, then 429, then 400/403/404.
const p = apiKeyProcedure.use(async ({ ctx, next }) => {
  await enforceApiRateLimit(ctx);
  return next();
});

export const logsRouter = router({
  list: p.meta(c.listLogs.meta).input(c.listLogs.input).output(c.listLogs.output)
    .query(({ ctx, input }) => listLogs({ ctx, input })),
  // Static path before the `{id}` path.
  getExecution: p.meta(c.getExecution.meta).input(c.getExecution.input).output(c.getExecution.output)
    .query(({ ctx, input }) => getExecution({ ctx, input })),
  get: p.meta(c.getLog.meta).input(c.getLog.input).output(c.getLog.output)
    .query(({ ctx, input }) => getLog({ ctx, input })),
});
