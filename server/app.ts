import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { Hono, type MiddlewareHandler } from "hono";
import type { AppDeps, RequestContext } from "./context.ts";
import { AppError } from "./errors.ts";
import { toAppError } from "./http/error-mapping.ts";
import { checkTrpcInput } from "./http/check-trpc-input.ts";
import { createAllowedMethods } from "./http/allowed-methods.ts";
import { createLogsListRoute } from "./http/logs-list-route.ts";
import { createRestHandler, errorResponse, logServerError } from "./http/rest-handler.ts";
import { newId } from "./ids.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { healthRouter } from "./routers/health.ts";
import { appRouter } from "./routers/index.ts";
import { router } from "./trpc.ts";
import { executeWorkflowRoute } from "./routers/workflows.ts";
import { serveAdminUi } from "./http/admin-ui.ts";
import { mountTriggerRoutes } from "./triggers/mount-trigger-routes.ts";

type Env = { Variables: { ctx: RequestContext } };

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const EXECUTE_PATH = /^\/api\/workflows\/([^/]+)\/execute\/?$/i;

/** Composes the HTTP surface: REST (OpenAPI), /trpc, /openapi.json and the admin SPA. */
export function createApp(deps: AppDeps) {
  const app = new Hono<Env>();
  const rest = createRestHandler(appRouter);
  const openApiJson = JSON.stringify(buildOpenApiDocument());

  app.use("*", requestContext(deps));

  app.get("/openapi.json", (c) => c.body(openApiJson, 200, { "content-type": "application/json" }));

  app.all("/trpc/*", async (c) => {
    const refused = await checkTrpcInput(c.req.raw);
    if (refused) throw refused;
    return fetchRequestHandler({
      endpoint: "/trpc",
      req: c.req.raw,
      router: appRouter,
      createContext: ({ resHeaders }) => {
        const ctx = c.get("ctx");
        ctx.resHeaders = resHeaders;
        return ctx;
      },
      onError: ({ error }) => logServerError(c.get("ctx"), error),
      // Errors carry their own headers (e.g. Retry-After and the rate-limit headers of a 429).
      responseMeta: ({ errors }) => ({ headers: errors.length > 0 ? toAppError(errors[0]).headers : undefined }),
    });
  });

  mountTriggerRoutes(app);

  // Matched case-insensitively, like every REST path, so no spelling reaches the OpenAPI adapter
  // (which would merge the path id over a body field called `id`).
  app.post("/api/*", (c, next) => {
    const match = EXECUTE_PATH.exec(c.req.path);
    return match ? executeWorkflowRoute(c, match[1]) : next();
  });

  app.get("/api/v1/logs", createLogsListRoute());

  const allowedMethods = createAllowedMethods(appRouter);
  app.all("/api/*", async (c) => {
    const ctx = c.get("ctx");
    const response = await rest(c.req.raw, ctx);
    if (response) return response;
    const path = new URL(c.req.url).pathname;
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      throw new AppError(405, "METHOD_NOT_ALLOWED", `${path} does not answer ${c.req.method}; it answers ${allowed.join(", ")}`, undefined, {
        Allow: allowed.join(", "),
      });
    }
    throw new AppError(404, "NOT_FOUND", `No route for ${c.req.method} ${path}`);
  });

  serveAdminUi(app);

  handleErrors(app, deps);
  return app;
}

/** For ROLE=worker: GET /api/health only (liveness probes), through the same procedure. */
export function createHealthApp(deps: AppDeps) {
  const app = new Hono<Env>();
  const rest = createRestHandler(router({ health: healthRouter }));
  app.use("*", requestContext(deps));
  app.get("/api/health", async (c) => (await rest(c.req.raw, c.get("ctx"))) ?? c.notFound());
  handleErrors(app, deps);
  return app;
}

/** Gives every request its context: the app's services, a request id (the caller's when well-formed), no actor yet. */
function requestContext(deps: AppDeps): MiddlewareHandler<Env> {
  return async function requestContext(c, next) {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : newId("req");
    c.set("ctx", {
      ...deps,
      requestId,
      headers: c.req.raw.headers,
      resHeaders: new Headers(),
      response: {},
      actor: { type: "anonymous" },
    });
    await next();
    c.res.headers.set("x-request-id", requestId);
  };
}

/** Unknown routes and unexpected failures answer with the envelope too. */
function handleErrors(app: Hono<Env>, deps: AppDeps) {
  app.notFound((c) =>
    errorResponse(new AppError(404, "NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`), c.get("ctx")?.requestId ?? newId("req")),
  );
  app.onError((err, c) => {
    const requestId = c.get("ctx")?.requestId ?? newId("req");
    logServerError({ logger: deps.logger, requestId }, err);
    return errorResponse(toAppError(err), requestId);
  });
}
