import { embed } from "../template.ts";

/**
 * The items a forEach loop or a collection parallel goes through: an array as is, an object as its
 * `[key, value]` entries, a string as JSON of either. Anything else, or more than `max`, is an error.
 */
export function toItems(value: unknown, what: string, max: number): { items: unknown[] } | { error: string } {
  let items = value;
  if (typeof items === "string") {
    try {
      items = JSON.parse(items);
    } catch {
      return { error: `${what} is a string that is not JSON of an array or object: ${preview(value)}` };
    }
  }
  if (items !== null && typeof items === "object" && !Array.isArray(items)) items = Object.entries(items);
  if (!Array.isArray(items)) {
    return { error: `${what} must be an array, an object or JSON of one (got ${value === undefined ? "nothing" : preview(value)})` };
  }
  if (items.length > max) return { error: `${what} has ${items.length} items; at most ${max} are allowed` };
  return { items };
}

/** A whole-number count from a resolved value (a number or its text), within [min, max]. */
export function toCount(value: unknown, what: string, min: number, max: number): { count: number } | { error: string } {
  const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n === "number" && Number.isInteger(n) && n >= min && n <= max) return { count: n };
  return { error: `${what} must be an integer from ${min} to ${max} (got ${value === undefined ? "nothing" : preview(value)})` };
}

function preview(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : embed(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
