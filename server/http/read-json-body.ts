import { AppError } from "../errors.ts";
import { readRawBody } from "./read-raw-body.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
/** Deeper JSON is refused: recursive walkers (validation, references, serialization) stay safe. */
export const MAX_JSON_DEPTH = 64;

export type BodyResult = { ok: true; value: unknown } | { ok: false; error: AppError };

/**
 * Reads a JSON request body up to MAX_BODY_BYTES. An empty body reads as undefined; a body of
 * another declared content type is refused with 415, oversize with 413, bad JSON with 400.
 */
export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<BodyResult> {
  let text: string;
  try {
    text = new TextDecoder().decode(await readRawBody(request, maxBytes));
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error };
    throw error;
  }
  if (text.trim() === "") return { ok: true, value: undefined };
  const type = request.headers.get("content-type");
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    return {
      ok: false,
      error: new AppError(415, "UNSUPPORTED_MEDIA_TYPE", `Send the body as application/json, not ${type}`),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: new AppError(400, "INVALID_JSON", "The request body is not valid JSON") };
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) return { ok: false, error: tooDeep() };
  return { ok: true, value };
}

export function tooDeep(): AppError {
  return new AppError(400, "INVALID_JSON", `The JSON is nested more than ${MAX_JSON_DEPTH} levels deep`);
}

/** Nesting depth of a parsed JSON value (a scalar is 0), walked without recursion. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== "object") continue;
    const inner = depth + 1;
    if (inner > max) max = inner;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, inner]);
  }
  return max;
}
