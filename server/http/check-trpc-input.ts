import { AppError } from "../errors.ts";
import { jsonDepth, MAX_BODY_BYTES, MAX_JSON_DEPTH, tooDeep } from "./read-json-body.ts";

/**
 * The tRPC transport parses its own input; this applies the REST limits to it first (size, JSON
 * depth). Input that is not JSON is left to tRPC to report.
 */
export async function checkTrpcInput(request: Request): Promise<AppError | null> {
  const text =
    request.method === "GET" ? new URL(request.url).searchParams.get("input") : await request.clone().text();
  if (!text) return null;
  if (text.length > MAX_BODY_BYTES) {
    return new AppError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${MAX_BODY_BYTES} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return jsonDepth(value) > MAX_JSON_DEPTH ? tooDeep() : null;
}
