import type Database from "libsql";

/** A prepared statement kept for reuse, with what @libsql/client would otherwise work out per call. */
export type CachedStatement = {
  statement: Database.Statement;
  /** From the statement's `reader` flag: whether it yields rows (SELECT, RETURNING, some PRAGMAs). */
  returnsData: boolean;
  /** CREATE/ALTER/DROP: running it can change the columns other cached statements return. */
  changesSchema: boolean;
  columns: string[];
  columnTypes: string[];
};

export type StatementCacheStats = { size: number; capacity: number; prepares: number; hits: number };

const schemaChange = /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*(?:create|alter|drop)\b/i;

/** Prepares `sql` once: integers as bigint (converted per intMode later) and rows as arrays. */
export function prepareStatement(db: Database.Database, sql: string): CachedStatement {
  const statement = db.prepare(sql);
  statement.safeIntegers(true);
  const returnsData = statement.reader;
  if (!returnsData) {
    return { statement, returnsData, changesSchema: schemaChange.test(sql), columns: [], columnTypes: [] };
  }
  statement.raw(true);
  const definitions = statement.columns();
  return {
    statement,
    returnsData,
    changesSchema: false,
    columns: definitions.map((column) => column.name),
    columnTypes: definitions.map((column) => column.type ?? ""),
  };
}

/**
 * Least-recently-used prepared statements keyed by SQL text. A Map keeps insertion order, so
 * re-inserting on a hit makes its first key the least recently used one.
 */
export class StatementCache {
  readonly #entries = new Map<string, CachedStatement>();
  #prepares = 0;
  #hits = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("statement cache capacity must be a positive integer");
  }

  get(db: Database.Database, sql: string): CachedStatement {
    const entries = this.#entries;
    const hit = entries.get(sql);
    if (hit !== undefined) {
      this.#hits++;
      entries.delete(sql);
      entries.set(sql, hit);
      return hit;
    }
    const prepared = prepareStatement(db, sql);
    this.#prepares++;
    entries.set(sql, prepared);
    if (entries.size > this.capacity) entries.delete(entries.keys().next().value as string);
    return prepared;
  }

  /** Replaces the entry for `sql` (e.g. after its columns went stale). */
  set(sql: string, prepared: CachedStatement): void {
    this.#entries.delete(sql);
    this.#entries.set(sql, prepared);
    this.#prepares++;
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  clear(): void {
    this.#entries.clear();
  }

  stats(): StatementCacheStats {
    return { size: this.#entries.size, capacity: this.capacity, prepares: this.#prepares, hits: this.#hits };
  }
}
