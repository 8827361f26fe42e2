/**
 * Headers a response block may not set on the service's own answer: hop-by-hop and framing headers
 * (the server frames the body itself), the content type (the answer is always the JSON envelope),
 * cookies (a workflow must not plant cookies on the service's origin), CORS and transport-security
 * policy of the origin, and the request id.
 */
const REFUSED = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
  "content-encoding",
  "content-type",
  "host",
  "set-cookie",
  "set-cookie2",
  "strict-transport-security",
  "x-request-id",
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, spaces and tabs (and obs-text); no CR/LF, so no header injection. */
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The response block's headers that the answer may carry, names lowercased. */
export function safeResponseHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [rawName, rawValue] of Object.entries(headers)) {
    const name = rawName.trim().toLowerCase();
    if (!TOKEN.test(name) || REFUSED.has(name) || name.startsWith("access-control-")) continue;
    if (typeof rawValue !== "string" && typeof rawValue !== "number" && typeof rawValue !== "boolean") continue;
    const value = String(rawValue).trim();
    if (!VALUE.test(value)) continue;
    out[name] = value;
  }
  return out;
}
