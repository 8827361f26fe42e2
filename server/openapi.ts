import { generateOpenApiDocument } from "trpc-to-openapi";
import { errorEnvelopeSchema } from "../contract/common.ts";
import type { ProcedureMeta } from "../contract/define.ts";
import { openApiExtraPaths } from "./openapi-extra-paths.ts";
import { appRouter } from "./routers/index.ts";

type Operation = { responses?: Record<string, unknown>; security?: unknown[]; operationId?: string };

const ERROR_RESPONSE = {
  description: "Error",
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
};

/**
 * The OpenAPI 3.1 document of the REST surface, generated from the contract, with the success
 * status, security scheme and error envelope of each operation set from its meta.
 */
export function buildOpenApiDocument() {
  const doc = generateOpenApiDocument(appRouter, {
    title: "Workflow automation service",
    version: "1.0.0",
    baseUrl: "/",
    securitySchemes: {
      apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
      adminKey: { type: "apiKey", in: "header", name: "x-admin-key" },
    },
    defs: { ErrorEnvelope: errorEnvelopeSchema },
  });
  const metaByRoute = new Map<string, ProcedureMeta>();
  for (const procedure of Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>)) {
    const meta = procedure._def.meta;
    if (meta?.openapi) metaByRoute.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, meta);
  }
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const meta = metaByRoute.get(`${method} ${path.replace(/\{(\w+)\}/g, "{$1}")}`);
      if (!meta || !op.responses) continue;
      const success = meta.successStatus ?? 200;
      const responses: Record<string, unknown> = {};
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === "200") responses[String(success)] = response;
        else responses[status] = ERROR_RESPONSE;
      }
      op.responses = responses;
      const auth = meta.auth ?? "apiKey";
      op.security = auth === "none" ? [] : [{ [auth === "admin" ? "adminKey" : "apiKey"]: [] }];
    }
  }
  Object.assign((doc.paths ??= {}), openApiExtraPaths);
  // Error responses all point at ErrorEnvelope; drop the generator's unused tRPC error shapes.
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  return doc;
}
