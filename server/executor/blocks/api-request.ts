import { embed } from "../template.ts";
import type { ApiMethod } from "./api-params.ts";
import { toPairs } from "./param-checks.ts";

export type ApiRequest = { url: string; method: ApiMethod; headers: Record<string, string>; body?: string };

const BODY_METHODS = new Set<string>(["POST", "PUT", "PATCH"]);
const PATH_PARAM = /\{([^{}/]*)\}/g;

/** Builds the request from resolved params, or says (naming the field) why it cannot be built. */
export function buildApiRequest(params: Record<string, unknown>, method: ApiMethod): ApiRequest | { error: string } {
  const rawUrl = params.url === undefined || params.url === null ? "" : embed(params.url).trim();
  if (rawUrl === "") return { error: "url is empty (a reference in it resolved to nothing)" };

  const pathParams = new Map(toPairs(params.pathParams));
  let missing: string | null = null;
  const filled = rawUrl.replace(PATH_PARAM, (_whole, name: string) => {
    const value = pathParams.get(name);
    if (value === undefined || value === null) {
      missing ??= name;
      return "";
    }
    return encodeURIComponent(embed(value));
  });
  if (missing !== null) return { error: `Missing path parameter "${missing}" for url ${rawUrl}` };

  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return { error: `Invalid URL: ${filled}` };
  }
  const query = queryString(params.query);
  if (query !== "") url.search = url.search.length > 1 ? `${url.search.slice(1)}&${query}` : query;

  const headerMap = new Map<string, string>();
  for (const [name, value] of toPairs(params.headers)) {
    if (value === undefined || value === null) continue;
    const key = name.toLowerCase();
    const previous = headerMap.get(key);
    headerMap.set(key, previous === undefined ? embed(value) : `${previous}, ${embed(value)}`);
  }
  // fromEntries defines own properties, so a header named "__proto__" cannot touch the prototype.
  const headers: Record<string, string> = Object.fromEntries(headerMap);

  const request: ApiRequest = { url: url.toString(), method, headers };
  const body = params.body;
  if (BODY_METHODS.has(method) && body !== undefined && body !== null) {
    if (typeof body === "string") {
      request.body = body;
      headers["content-type"] ??= looksLikeJson(body) ? "application/json" : "text/plain; charset=utf-8";
    } else {
      request.body = JSON.stringify(body);
      headers["content-type"] ??= "application/json";
    }
  }
  return request;
}

/** `key=value&...`, percent-encoded; arrays repeat the key; missing values are left out. */
function queryString(query: unknown): string {
  const parts: string[] = [];
  for (const [key, value] of toPairs(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(embed(item))}`);
    }
  }
  return parts.join("&");
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
