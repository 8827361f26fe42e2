import { AppError } from "../errors.ts";

/** The request body as bytes, refused with 413 past `maxBytes` (declared or actually sent). */
export async function readRawBody(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes`);
}
