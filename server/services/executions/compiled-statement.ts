import type { InStatement, InValue } from "@libsql/client";
import { is, Param, Placeholder, sql } from "drizzle-orm";

/** Fills a compiled statement's named placeholders. */
export type CompiledStatement = (values: Record<string, unknown>) => InStatement;

type Slot = { name: string; encode: (value: unknown) => unknown } | { constant: unknown };

/**
 * A drizzle query turned into SQL text once; each call only binds values. Building a query with
 * drizzle costs tens of microseconds, as much as running it, so the per-execution statements of the
 * execute path are compiled once and sent with the libSQL client directly (docs/workflows.md).
 */
export function compileStatement(query: { toSQL(): { sql: string; params: unknown[] } }): CompiledStatement {
  const { sql: text, params } = query.toSQL();
  const slots: Slot[] = params.map((p) => {
    if (is(p, Placeholder)) return { name: p.name, encode: (v: unknown) => v };
    if (is(p, Param) && is(p.value, Placeholder)) {
      const encoder = p.encoder as { mapToDriverValue?: (v: unknown) => unknown } | undefined;
      return { name: p.value.name, encode: (v: unknown) => (encoder?.mapToDriverValue ? encoder.mapToDriverValue(v) : v) };
    }
    return { constant: p };
  });
  return (values) => ({
    sql: text,
    args: slots.map((slot) => {
      if ("constant" in slot) return slot.constant as InValue;
      if (!(slot.name in values)) throw new Error(`No value for placeholder "${slot.name}"`);
      return slot.encode(values[slot.name]) as InValue;
    }),
  });
}

/** A named placeholder typed as the value it stands for, so it fits drizzle's typed builders. */
export function placeholder<T>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}
