import { AppError } from "../../errors.ts";

export type LogOrder = "desc" | "asc";

/** A place in the (started_at, id) ordering: the next page starts strictly after it. */
export type LogPosition = { startedAt: number; id: string };

const VERSION = 1;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

type CursorJson = { v: number; o: "d" | "a"; t: number; i: string };

/** Opaque page cursor: base64url JSON of the position, bound to the order it was made for. */
export function encodeCursor(order: LogOrder, position: LogPosition): string {
  const json: CursorJson = { v: VERSION, o: order === "desc" ? "d" : "a", t: position.startedAt, i: position.id };
  return Buffer.from(JSON.stringify(json)).toString("base64url");
}

/** The position a cursor names; 400 INVALID_CURSOR when it is malformed or was made for the other order. */
export function decodeCursor(cursor: string, order: LogOrder): LogPosition {
  const parsed = BASE64URL.test(cursor) ? tryParse(cursor) : null;
  if (!parsed) throw invalidCursor("it is not a cursor returned by this API");
  const madeFor: LogOrder = parsed.o === "d" ? "desc" : "asc";
  if (madeFor !== order) {
    throw invalidCursor(`it was returned for order=${madeFor}; use it with order=${madeFor} or start without a cursor`);
  }
  return { startedAt: parsed.t, id: parsed.i };
}

function tryParse(cursor: string): CursorJson | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof value !== "object" || value === null) return null;
    const { v, o, t, i } = value as Record<string, unknown>;
    if (v !== VERSION || (o !== "d" && o !== "a")) return null;
    if (typeof t !== "number" || !Number.isSafeInteger(t) || typeof i !== "string" || i.length > 256) return null;
    return { v, o, t, i };
  } catch {
    return null;
  }
}

function invalidCursor(why: string): AppError {
  return new AppError(400, "INVALID_CURSOR", `Invalid parameter "cursor": ${why}`, { parameter: "cursor" });
}
