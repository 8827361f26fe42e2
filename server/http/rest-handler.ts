import type { AnyTRPCRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import type { RequestContext } from "../context.ts";
import { AppError, type ErrorEnvelope, envelope } from "../errors.ts";
import type { Meta } from "../trpc.ts";
import { toAppError } from "./error-mapping.ts";
import { readJsonBody } from "./read-json-body.ts";

type Handler = (req: unknown, res: unknown, next?: () => void) => Promise<void>;

/**
 * Serves the router's OpenAPI procedures as REST. The trpc-to-openapi handler is built once (its
 * fetch adapter rebuilds it, and the whole document, per request), fed a Request whose URL is
 * `http://localhost` + path, and every error body is rewritten into the one envelope.
 * Answers null when no procedure matches the method and path.
 */
export function createRestHandler(router: AnyTRPCRouter) {
  const successStatus = new Map<string, number>();
  for (const [path, procedure] of Object.entries(router._def.procedures as Record<string, { _def: { meta?: Meta } }>)) {
    const status = procedure._def.meta?.successStatus;
    if (status) successStatus.set(path, status);
  }

  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: { ctx: RequestContext } }) => req.ctx,
    onError: ({ error, ctx }: { error: unknown; ctx?: RequestContext }) => {
      if (ctx) logServerError(ctx, error);
    },
    responseMeta: ({ ctx, paths, errors }: { ctx?: RequestContext; paths?: string[]; errors: unknown[] }) => {
      // Merge through Headers so that a name set by both ctx and the error is sent once.
      const merged = new Headers(ctx?.resHeaders);
      const err = errors.length > 0 ? toAppError(errors[0]) : undefined;
      for (const [key, value] of Object.entries(err?.headers ?? {})) merged.set(key, value);
      const headers: Record<string, string> = {};
      merged.forEach((value, key) => {
        headers[key] = value;
      });
      if (err) return { status: err.status, headers };
      return { status: ctx?.response.status ?? successStatus.get(paths?.[0] ?? "") ?? 200, headers };
    },
  } as never) as unknown as Handler;

  return async function handleRest(request: Request, ctx: RequestContext): Promise<Response | null> {
    const url = new URL(request.url);
    const hasBody = request.method !== "GET" && request.method !== "DELETE" && request.method !== "HEAD";
    let body: unknown;
    if (hasBody) {
      const parsed = await readJsonBody(request);
      if (!parsed.ok) return errorResponse(parsed.error, ctx.requestId);
      body = parsed.value ?? {};
    }
    const headers = new Headers(request.headers);
    if (hasBody) headers.set("content-type", "application/json");
    const localUrl = `http://localhost${url.pathname}${url.search}`;
    const proxied = new Proxy(request, {
      get(target, prop) {
        if (prop === "url") return localUrl;
        if (prop === "headers") return headers;
        if (prop === "body") return body;
        if (prop === "ctx") return ctx;
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });

    let matched = true;
    const response = await new Promise<Response | null>((resolve) => {
      let status = 200;
      const resHeaders = new Headers();
      const res = {
        setHeader: (key: string, value: string | string[]) => {
          for (const v of Array.isArray(value) ? value : [value]) resHeaders.append(key, v);
        },
        get statusCode() {
          return status;
        },
        set statusCode(code: number) {
          status = code;
        },
        end: (text?: string) => resolve(new Response(text ?? null, { status, headers: resHeaders })),
      };
      handler(proxied, res, () => {
        matched = false;
        resolve(null);
      }).catch((error: unknown) => {
        logServerError(ctx, error);
        resolve(errorResponse(toAppError(error), ctx.requestId));
      });
    });
    if (!matched || !response) return null;
    if (response.status < 400) return response;
    return rewriteErrorBody(response, ctx.requestId);
  };
}

async function rewriteErrorBody(response: Response, requestId: string): Promise<Response> {
  let env: ErrorEnvelope | undefined;
  try {
    const parsed = (await response.json()) as { data?: { envelope?: ErrorEnvelope } };
    env = parsed.data?.envelope;
  } catch {
    env = undefined;
  }
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  const body = env ?? envelope(new AppError(response.status, "ERROR", "Request failed"), requestId);
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

/** Failures we answer with 5xx are logged with the request id the caller was given; 4xx are not. */
export function logServerError(ctx: Pick<RequestContext, "logger" | "requestId">, error: unknown): void {
  if (toAppError(error).status < 500) return;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  ctx.logger.error("request failed", {
    requestId: ctx.requestId,
    error: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
    stack: cause instanceof Error ? cause.stack : undefined,
  });
}

export function errorResponse(err: AppError, requestId: string): Response {
  const headers = new Headers({ "content-type": "application/json", ...err.headers });
  return new Response(JSON.stringify(envelope(err, requestId)), { status: err.status, headers });
}
