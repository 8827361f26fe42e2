import type { InArgs, InStatement, IntMode, Row } from "@libsql/client";
import Database from "libsql";
import { mapSqliteError } from "./local-errors.ts";
import { LocalResultSet, rowFromSql, type SqlValue, valueToSql } from "./local-values.ts";
import { type CachedStatement, prepareStatement, StatementCache, type StatementCacheStats } from "./statement-cache.ts";

/**
 * One native libsql connection plus its prepared-statement cache. Runs statements exactly as
 * @libsql/client's `executeStmt` does, minus the per-call prepare, raw() probe and columns() calls.
 */
export class LocalConnection {
  readonly #db: Database.Database;
  readonly #cache: StatementCache;
  readonly #intMode: IntMode;

  constructor(path: string, intMode: IntMode, cacheCapacity: number) {
    this.#db = new Database(path);
    this.#cache = new StatementCache(cacheCapacity);
    this.#intMode = intMode;
  }

  get open(): boolean {
    return this.#db.open;
  }

  /** Only read it while `open`: asking a closed native database aborts the process. */
  get inTransaction(): boolean {
    return this.#db.inTransaction;
  }

  execute(stmt: InStatement): LocalResultSet {
    let sql: string;
    let args: SqlValue[] | Record<string, SqlValue>;
    if (typeof stmt === "string") {
      sql = stmt;
      args = [];
    } else {
      sql = stmt.sql;
      args = bindArgs(stmt.args, this.#intMode);
    }
    try {
      const prepared = this.#cache.get(this.#db, sql);
      if (prepared.returnsData) return this.#query(sql, prepared, args);
      const info = prepared.statement.run(args);
      // SQLite re-prepares statements after a schema change, but the cached column names would be stale.
      if (prepared.changesSchema) this.#cache.clear();
      return new LocalResultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
    } catch (e) {
      throw mapSqliteError(e);
    }
  }

  /** Runs a script of statements; they may change the schema, so the cache starts over. */
  executeMultiple(sql: string): void {
    try {
      this.#db.exec(sql);
    } catch (e) {
      throw mapSqliteError(e);
    } finally {
      this.#cache.clear();
    }
  }

  /** Undoes a transaction a statement or script left open (as @libsql/client does on release). */
  rollbackIfOpen(): void {
    if (this.#db.open && this.#db.inTransaction) this.execute("ROLLBACK");
  }

  clearStatementCache(): void {
    this.#cache.clear();
  }

  statementCacheStats(): StatementCacheStats {
    return this.#cache.stats();
  }

  sync(): unknown {
    return this.#db.sync();
  }

  close(): void {
    this.#cache.clear();
    try {
      if (this.#db.open) this.#db.close();
    } catch {
      // nothing useful to do while tearing down
    }
  }

  #query(sql: string, prepared: CachedStatement, args: SqlValue[] | Record<string, SqlValue>): LocalResultSet {
    const sqlRows = prepared.statement.all(args) as unknown[][];
    let current = prepared;
    // A schema change made through another connection leaves the cached column list behind.
    if (sqlRows.length > 0 && sqlRows[0].length !== prepared.columns.length) {
      current = prepareStatement(this.#db, sql);
      this.#cache.set(sql, current);
    }
    const { columns, columnTypes } = current;
    const intMode = this.#intMode;
    const rows: Row[] = new Array(sqlRows.length);
    for (let i = 0; i < sqlRows.length; i++) rows[i] = rowFromSql(sqlRows[i], columns, intMode);
    // Copies: callers own the arrays they get, the cache must not see their edits.
    return new LocalResultSet(columns.slice(), columnTypes.slice(), rows, 0, undefined);
  }
}

function bindArgs(args: InArgs | undefined, intMode: IntMode): SqlValue[] | Record<string, SqlValue> {
  if (Array.isArray(args)) {
    const bound: SqlValue[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) bound[i] = valueToSql(args[i], intMode);
    return bound;
  }
  const named: Record<string, SqlValue> = {};
  for (const name in args) {
    const argName = name[0] === "@" || name[0] === "$" || name[0] === ":" ? name.substring(1) : name;
    named[argName] = valueToSql(args[name], intMode);
  }
  return named;
}
