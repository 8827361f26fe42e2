import { AppError } from "../../errors.ts";
import { jsonDepth, MAX_JSON_DEPTH, tooDeep } from "../../http/read-json-body.ts";
import { isSensitiveHeader } from "../../security/sensitive-headers.ts";

/** What a webhook-triggered run receives as `<start>` (docs/triggers.md). */
export type WebhookInput = {
  body: unknown;
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  method: string;
};

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;

/**
 * The run input from the request: a JSON body parsed (400 on bad JSON), any other body as text, no
 * body as null; header names lowercased with credential-looking headers (the secret included) left
 * out; a query parameter given more than once as an array.
 */
export function webhookInput(method: string, headers: Headers, url: URL, rawBody: Uint8Array): WebhookInput {
  return { body: parseBody(headers.get("content-type"), rawBody), headers: safeHeaders(headers), query: queryOf(url), method };
}

function parseBody(contentType: string | null, raw: Uint8Array): unknown {
  if (raw.byteLength === 0) return null;
  const text = new TextDecoder().decode(raw);
  if (!contentType || !JSON_TYPE.test(contentType)) return text;
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(400, "INVALID_JSON", "The request body is not valid JSON (content-type says JSON)");
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) throw tooDeep();
  return value;
}

function safeHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  headers.forEach((value, name) => {
    if (!isSensitiveHeader(name)) out[name] = value;
  });
  return out;
}

function queryOf(url: URL): Record<string, string | string[]> {
  // No prototype: a parameter named __proto__ is data like any other.
  const out: Record<string, string | string[]> = Object.create(null);
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    out[name] = values.length === 1 ? values[0] : values;
  }
  return out;
}
