import { normalizeBlockName } from "./block-names.ts";

/**
 * `<name>` or `<name.path>`; a path is `.key` / `.0` / `[0]` segments. The name may contain inner
 * spaces (`<My API.data>` = `<myapi.data>`). Keys are restricted to identifier-like characters so
 * that text such as `<john.doe@example.com>` is not a reference.
 */
const REFERENCE = /<([^\s.<>[\]](?:[^\n.<>[\]]*[^\s.<>[\]])?)((?:\.[A-Za-z0-9_$-]+|\[\d+\])*)>/g;

export type ReferenceMatch = { start: number; end: number; name: string; path: string[]; hasPath: boolean };

/**
 * Every reference-shaped token in a text, with its normalized block name. `<name.path>` always is a
 * reference (an unknown name is a validation issue); a bare `<name>` only when something has that
 * name, so markup like `<div>` in a body stays text (the resolver decides, see engine/resolver.ts).
 */
export function findReferences(text: string): ReferenceMatch[] {
  if (!text.includes("<")) return [];
  const found: ReferenceMatch[] = [];
  for (const m of text.matchAll(REFERENCE)) {
    const path = m[2] ? m[2].split(/\.|\[|\]/).filter((s) => s !== "") : [];
    found.push({ start: m.index, end: m.index + m[0].length, name: normalizeBlockName(m[1]), path, hasPath: m[2] !== "" });
  }
  return found;
}

/** Calls visit for every string nested anywhere in a params value. */
export function forEachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") visit(value);
  else if (Array.isArray(value)) for (const item of value) forEachString(item, visit);
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) forEachString(item, visit);
}
