import { z } from "zod";

const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/i;

/**
 * Epoch milliseconds of an ISO 8601 timestamp, or null when it is not one. A time needs an offset
 * (`Z` or `±hh:mm`) so the answer never depends on the server's time zone; a bare date is UTC midnight.
 * A space before the offset is read as `+`, since an unencoded `+` in a query string arrives as a space.
 */
export function parseIsoTimestamp(text: string): number | null {
  const normalized = text.trim().replace(/ (\d{2}:\d{2})$/, "+$1");
  const m = ISO_TIMESTAMP.exec(normalized);
  if (!m) return null;
  const [, year, month, day, hour, minute, second] = m;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth) return null;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59)) return null;
  const ms = Date.parse(normalized.replace(" ", "T"));
  return Number.isNaN(ms) ? null : ms;
}

/** A query parameter holding an ISO 8601 timestamp (validated here, converted by the service). */
export const isoTimestampParam = z
  .string()
  .refine((v) => parseIsoTimestamp(v) !== null, {
    message: "must be an ISO 8601 timestamp, e.g. 2026-01-15T12:00:00Z",
  })
  .meta({ format: "date-time" });

/**
 * A comma-separated query parameter. Blank items are ignored; `allowed` restricts the values.
 * The result is the list of items (possibly empty: an empty list filters nothing).
 */
export function commaList<const T extends string>(options: { allowed?: readonly T[]; maxItems?: number } = {}) {
  const maxItems = options.maxItems ?? 500;
  return z.string().transform((text, ctx): T[] => {
    const items = [...new Set(text.split(",").map((s) => s.trim()).filter((s) => s.length > 0))];
    if (items.length > maxItems) {
      ctx.issues.push({ code: "custom", message: `must list at most ${maxItems} values`, input: text });
      return z.NEVER;
    }
    const allowed = options.allowed;
    if (allowed) {
      const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
      if (unknown.length > 0) {
        ctx.issues.push({
          code: "custom",
          message: `unknown value ${unknown.map((u) => `"${u}"`).join(", ")}; allowed: ${allowed.join(", ")}`,
          input: text,
        });
        return z.NEVER;
      }
    }
    return items as T[];
  });
}
