import { AppError } from "../errors.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult = { ok: true; value: unknown } | { ok: false; error: AppError };

/**
 * Reads a JSON request body up to MAX_BODY_BYTES. An empty body reads as undefined; a body of
 * another declared content type is refused with 415, oversize with 413, bad JSON with 400.
 */
export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return { ok: false, error: tooLarge(maxBytes) };
  const text = await readLimited(request, maxBytes);
  if (text === null) return { ok: false, error: tooLarge(maxBytes) };
  if (text.trim() === "") return { ok: true, value: undefined };
  const type = request.headers.get("content-type");
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    return {
      ok: false,
      error: new AppError(415, "UNSUPPORTED_MEDIA_TYPE", `Send the body as application/json, not ${type}`),
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: new AppError(400, "INVALID_JSON", "The request body is not valid JSON") };
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes`);
}

async function readLimited(request: Request, maxBytes: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
