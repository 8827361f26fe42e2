import type { InArgs, InStatement, ResultSet, Transaction } from "@libsql/client";
import type { LocalConnection } from "./local-connection.ts";
import { toBatchError, transactionClosedError } from "./local-errors.ts";

/**
 * Interactive transaction holding the client's only connection until commit, rollback or close,
 * with the behaviour of @libsql/client's Sqlite3Transaction.
 */
export class LocalTransaction implements Transaction {
  // null once handed back to the client
  #connection: LocalConnection | null;
  readonly #release: () => void;

  constructor(connection: LocalConnection, release: () => void) {
    this.#connection = connection;
    this.#release = release;
  }

  async execute(stmtOrSql: InStatement, args?: InArgs): Promise<ResultSet> {
    const stmt = typeof stmtOrSql === "string" ? { sql: stmtOrSql, args: args || [] } : stmtOrSql;
    return this.#usableConnection().execute(stmt);
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>): Promise<ResultSet[]> {
    const resultSets: ResultSet[] = [];
    for (let i = 0; i < stmts.length; i++) {
      try {
        const connection = this.#usableConnection();
        const stmt = stmts[i];
        resultSets.push(connection.execute(Array.isArray(stmt) ? { sql: stmt[0], args: stmt[1] || [] } : stmt));
      } catch (e) {
        throw toBatchError(e, i);
      }
    }
    return resultSets;
  }

  async executeMultiple(sql: string): Promise<void> {
    this.#usableConnection().executeMultiple(sql);
  }

  async rollback(): Promise<void> {
    const connection = this.#connection;
    if (connection === null || !connection.open) {
      this.#settle();
      return;
    }
    try {
      this.#checkNotClosed();
      connection.execute("ROLLBACK");
    } finally {
      this.#settle();
    }
  }

  async commit(): Promise<void> {
    try {
      this.#usableConnection().execute("COMMIT");
    } finally {
      this.#settle();
    }
  }

  close(): void {
    const connection = this.#connection;
    if (connection === null) return;
    try {
      if (connection.open && connection.inTransaction) connection.execute("ROLLBACK");
    } finally {
      this.#settle();
    }
  }

  get closed(): boolean {
    const connection = this.#connection;
    if (connection === null || !connection.open) return true;
    return !connection.inTransaction;
  }

  // Idempotent, so every exit path can call it.
  #settle(): void {
    if (this.#connection === null) return;
    this.#connection = null;
    this.#release();
  }

  #usableConnection(): LocalConnection {
    this.#checkNotClosed();
    return this.#connection as LocalConnection;
  }

  #checkNotClosed(): void {
    if (this.closed) throw transactionClosedError();
  }
}
