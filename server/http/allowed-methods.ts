import type { AnyTRPCRouter } from "@trpc/server";
import type { Meta } from "../trpc.ts";

/**
 * For a REST path no procedure answers with the request's method: the methods that path does have,
 * so the caller gets 405 with an Allow header instead of 404. Paths match as the OpenAPI adapter
 * matches them (case-insensitively, `{param}` = one segment, a trailing slash ignored).
 */
export function createAllowedMethods(router: AnyTRPCRouter): (path: string) => string[] {
  const routes: Array<{ pattern: RegExp; method: string }> = [];
  for (const procedure of Object.values(router._def.procedures as Record<string, { _def: { meta?: Meta } }>)) {
    const openapi = procedure._def.meta?.openapi;
    if (!openapi) continue;
    const source = openapi.path
      .replace(/\/+$/, "")
      .split("/")
      .map((segment) => (/^\{[^}]+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    routes.push({ pattern: new RegExp(`^${source}/?$`, "i"), method: openapi.method.toUpperCase() });
  }
  return (path) => [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))].sort();
}
