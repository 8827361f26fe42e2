import type { Context } from "hono";
import { logs as contract } from "../../contract/index.ts";
import type { RequestContext } from "../context.ts";
import { enforceApiRateLimit } from "../limits/api-rate-limit.ts";
import { authenticateRequest } from "../services/auth/authenticate-request.ts";
import { listLogsJson } from "../services/logs/list-logs.ts";
import { toAppError, validationError } from "./error-mapping.ts";
import { coerceQueryNumbers, queryInput } from "./query-input.ts";
import { errorResponse, logServerError } from "./rest-handler.ts";

type Env = { Variables: { ctx: RequestContext } };

/**
 * `GET /api/v1/logs`, the hottest read, served without the OpenAPI adapter and the tRPC procedure
 * chain, its page written as text (together about 40 % of its CPU per request,
 * docs/adr/0004-logs-list-route.md). The same contract input schema, the same steps in the same order
 * as the `logs.list` procedure (authenticate, spend an API token, parse, list) and the same service;
 * test/integration/logs-list-route.test.ts holds its answers equal to the procedure's. Other
 * spellings of the path still reach the procedure.
 */
export function createLogsListRoute() {
  const input = contract.listLogs.input;
  coerceQueryNumbers(input);
  return async function logsListRoute(c: Context<Env>): Promise<Response> {
    const ctx = c.get("ctx");
    try {
      const user = await authenticateRequest(ctx);
      await enforceApiRateLimit(user);
      const parsed = input.safeParse(queryInput(new URL(c.req.url)));
      if (!parsed.success) throw validationError(parsed.error.issues);
      const page = await listLogsJson({ ctx: user, input: parsed.data });
      const headers = new Headers(ctx.resHeaders);
      headers.set("content-type", "application/json");
      return new Response(page, { status: 200, headers });
    } catch (error) {
      logServerError(ctx, error);
      const response = errorResponse(toAppError(error), ctx.requestId);
      // Rate-limit headers go on every answer after authentication, errors included.
      for (const [name, value] of ctx.resHeaders) if (!response.headers.has(name)) response.headers.set(name, value);
      return response;
    }
  };
}
