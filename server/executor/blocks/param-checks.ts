import { findReferences } from "../references.ts";

/** A string that is exactly one `<block.path>` reference (its value is only known at run time). */
export function isWholeReference(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const refs = findReferences(value);
  return refs.length === 1 && refs[0].start === 0 && refs[0].end === value.length;
}

export function checkInteger(
  params: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  issues: string[],
): void {
  const value = params[key];
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    issues.push(`${key} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
}

export function checkBoolean(params: Record<string, unknown>, key: string, issues: string[]): void {
  const value = params[key];
  if (value !== undefined && typeof value !== "boolean") {
    issues.push(`${key} must be true or false (got ${JSON.stringify(value)})`);
  }
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A key/value collection: an object map `{k: v}` or an array of `{key, value}` rows (rows with an
 * empty key are ignored, as editors leave blank rows). With checkHeaderNames, keys must be valid
 * HTTP header names.
 */
export function checkKeyValues(
  params: Record<string, unknown>,
  key: string,
  issues: string[],
  options: { headerNames?: boolean } = {},
): void {
  const value = params[key];
  if (value === undefined || value === null) return;
  let keys: string[];
  if (Array.isArray(value)) {
    keys = [];
    for (const [i, row] of value.entries()) {
      if (row === null || typeof row !== "object" || Array.isArray(row) || typeof (row as { key?: unknown }).key !== "string") {
        issues.push(`${key}[${i}] must be an object {key, value} with a string key`);
        continue;
      }
      keys.push((row as { key: string }).key);
    }
  } else if (typeof value === "object") {
    keys = Object.keys(value);
  } else {
    issues.push(`${key} must be an object map or an array of {key, value} rows`);
    return;
  }
  if (!options.headerNames) return;
  for (const name of keys) {
    if (name !== "" && !HEADER_NAME.test(name)) issues.push(`${key}: "${name}" is not a valid header name`);
  }
}

/** [key, value] pairs of a (resolved) key/value collection; rows with an empty key are dropped. */
export function toPairs(value: unknown): Array<[string, unknown]> {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    const pairs: Array<[string, unknown]> = [];
    for (const row of value) {
      const k = (row as { key?: unknown } | null)?.key;
      if (typeof k === "string" && k !== "") pairs.push([k, (row as { value?: unknown }).value]);
    }
    return pairs;
  }
  if (typeof value === "object") return Object.entries(value);
  return [];
}
