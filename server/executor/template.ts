import { findReferences, isReference } from "./references.ts";

/** Block outputs of the current run, indexed like the plan's blocks; undefined = did not run. */
export type Outputs = readonly unknown[];

/** A params value compiled once per workflow state: constants are returned as is, never copied. */
export type Template = { constant: true; value: unknown } | { constant: false; resolve(outputs: Outputs): unknown };

type Ref = { index: number; path: string[] };

/** Compiles every string (deeply) of a value into a resolver of its references. */
export function compileTemplate(value: unknown, names: ReadonlyMap<string, number>): Template {
  if (typeof value === "string") return compileString(value, names);
  if (Array.isArray(value)) {
    const items = value.map((item) => compileTemplate(item, names));
    if (items.every((t) => t.constant)) return { constant: true, value };
    return { constant: false, resolve: (o) => items.map((t) => (t.constant ? t.value : t.resolve(o))) };
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => [k, compileTemplate(v, names)] as const);
    if (entries.every(([, t]) => t.constant)) return { constant: true, value };
    return {
      constant: false,
      resolve: (o) => {
        const out: Record<string, unknown> = {};
        for (const [k, t] of entries) out[k] = t.constant ? t.value : t.resolve(o);
        return out;
      },
    };
  }
  return { constant: true, value };
}

function compileString(text: string, names: ReadonlyMap<string, number>): Template {
  const matches = findReferences(text).filter((m) => isReference(m, names));
  if (matches.length === 0) return { constant: true, value: text };
  const refs: Ref[] = matches.map((m) => ({ index: names.get(m.name) ?? -1, path: m.path }));
  // The whole string is one reference: the value keeps its type.
  if (matches.length === 1 && matches[0].start === 0 && matches[0].end === text.length) {
    const ref = refs[0];
    return { constant: false, resolve: (o) => lookup(ref, o) };
  }
  const literals: string[] = [];
  let at = 0;
  for (const m of matches) {
    literals.push(text.slice(at, m.start));
    at = m.end;
  }
  literals.push(text.slice(at));
  return {
    constant: false,
    resolve: (o) => {
      let out = literals[0];
      for (let i = 0; i < refs.length; i++) out += embed(lookup(refs[i], o)) + literals[i + 1];
      return out;
    },
  };
}

function lookup(ref: Ref, outputs: Outputs): unknown {
  let current: unknown = ref.index < 0 ? undefined : outputs[ref.index];
  for (const key of ref.path) {
    if (current === null || (typeof current !== "object" && typeof current !== "string")) return undefined;
    // Own properties only: a path must not reach prototypes (`constructor`, `__proto__`).
    if (!Object.hasOwn(current as object, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** How a value reads inside a text: missing -> "", strings as is, objects as JSON. */
export function embed(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}
