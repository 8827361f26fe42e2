import type { Scope } from "./engine/scope.ts";
import { findReferences, type ReferenceMatch } from "./references.ts";

/** Reads one reference's value in a scope (undefined = did not run / no such path). */
export type Lookup = (scope: Scope) => unknown;

/** A params value compiled once per workflow state: constants are returned as is, never copied. */
export type Template = { constant: true; value: unknown } | { constant: false; resolve(scope: Scope): unknown };

/** How references read at one place of the workflow (a graph: the top level, or a section's body). */
export type ReferenceResolver = {
  /** The lookup of a reference-shaped token, or null when the token is plain text. */
  lookup(match: ReferenceMatch): Lookup | null;
  /** Globals all code sees besides its references: `input`, `variable`, `loop`, `parallel`. */
  codeGlobals(scope: Scope): Record<string, unknown>;
};

/**
 * Code (a function body, a condition) with each reference replaced by a global name
 * (`<api.data>` -> `__ref0`) and the globals to run it with. References are never pasted in as
 * text, so no value can change what the code does.
 */
export type SandboxCode = { text: string; source: string; globals: Record<string, unknown> };

export type CodeTemplate = { constant: false; resolve(scope: Scope): SandboxCode };

export function isSandboxCode(value: unknown): value is SandboxCode {
  return value !== null && typeof value === "object" && typeof (value as SandboxCode).source === "string" && typeof (value as SandboxCode).globals === "object";
}

/**
 * Compiles every string (deeply) of a value into a resolver of its references. Strings at one of
 * `codePaths` (e.g. `code`, `conditions.*.expression`; `*` = any key or index) are compiled as code.
 */
export function compileTemplate(value: unknown, resolver: ReferenceResolver, codePaths: readonly string[] = []): Template {
  return compileAt(value, resolver, codePaths.map((p) => p.split(".")), 0);
}

function compileAt(value: unknown, resolver: ReferenceResolver, code: string[][], depth: number): Template {
  if (typeof value === "string") {
    return code.some((p) => p.length === depth) ? compileCode(value, resolver) : compileString(value, resolver);
  }
  const below = (key: string) => code.filter((p) => p.length > depth && (p[depth] === "*" || p[depth] === key));
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileAt(item, resolver, below(String(i)), depth + 1));
    if (items.every((t) => t.constant)) return { constant: true, value };
    return { constant: false, resolve: (s) => items.map((t) => (t.constant ? t.value : t.resolve(s))) };
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => [k, compileAt(v, resolver, below(k), depth + 1)] as const);
    if (entries.every(([, t]) => t.constant)) return { constant: true, value };
    return {
      constant: false,
      resolve: (s) => {
        const out: Record<string, unknown> = {};
        for (const [k, t] of entries) out[k] = t.constant ? t.value : t.resolve(s);
        return out;
      },
    };
  }
  return { constant: true, value };
}

function referencesIn(text: string, resolver: ReferenceResolver): Array<{ match: ReferenceMatch; lookup: Lookup }> {
  const found: Array<{ match: ReferenceMatch; lookup: Lookup }> = [];
  for (const match of findReferences(text)) {
    const lookup = resolver.lookup(match);
    if (lookup !== null) found.push({ match, lookup });
  }
  return found;
}

function compileString(text: string, resolver: ReferenceResolver): Template {
  const refs = referencesIn(text, resolver);
  if (refs.length === 0) return { constant: true, value: text };
  // The whole string is one reference: the value keeps its type.
  if (refs.length === 1 && refs[0].match.start === 0 && refs[0].match.end === text.length) {
    return { constant: false, resolve: refs[0].lookup };
  }
  const literals: string[] = [];
  let at = 0;
  for (const { match } of refs) {
    literals.push(text.slice(at, match.start));
    at = match.end;
  }
  literals.push(text.slice(at));
  const lookups = refs.map((r) => r.lookup);
  return {
    constant: false,
    resolve: (s) => {
      let out = literals[0];
      for (let i = 0; i < lookups.length; i++) out += embed(lookups[i](s)) + literals[i + 1];
      return out;
    },
  };
}

/** Compiles code: each distinct reference becomes a global `__refN` bound to its value at run time. */
export function compileCode(text: string, resolver: ReferenceResolver): CodeTemplate {
  const refs = referencesIn(text, resolver);
  const globalOf = new Map<string, string>();
  const lookups: Array<[string, Lookup]> = [];
  let source = "";
  let at = 0;
  for (const { match, lookup } of refs) {
    const key = `${match.name}\u0000${match.path.join("\u0000")}`;
    let name = globalOf.get(key);
    if (name === undefined) {
      name = `__ref${globalOf.size}`;
      globalOf.set(key, name);
      lookups.push([name, lookup]);
    }
    source += `${text.slice(at, match.start)}${name}`;
    at = match.end;
  }
  source += text.slice(at);
  return {
    constant: false,
    resolve: (s): SandboxCode => {
      const globals = resolver.codeGlobals(s);
      for (const [name, lookup] of lookups) globals[name] = lookup(s);
      return { text, source, globals };
    },
  };
}

/** Reads `path` below a value: own properties only, so a path cannot reach prototypes. */
export function walkPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || (typeof current !== "object" && typeof current !== "string")) return undefined;
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
