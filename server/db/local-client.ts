import {
  type Client,
  type InArgs,
  type InStatement,
  type IntMode,
  LibsqlError,
  type Replicated,
  type ResultSet,
  type Transaction,
  type TransactionMode,
} from "@libsql/client";
import { LocalConnection } from "./local-connection.ts";
import { batchRolledBackError, clientClosedError, toBatchError } from "./local-errors.ts";
import { LocalTransaction } from "./local-transaction.ts";
import type { StatementCacheStats } from "./statement-cache.ts";

export type LocalClientOptions = {
  /** How integers come back, as @libsql/client's `intMode` (default "number"). */
  intMode?: IntMode;
  /** Prepared statements kept, keyed by SQL text (default 500). */
  statementCacheSize?: number;
  /** Statements run on every (re)opened connection, e.g. per-connection PRAGMAs. */
  setup?: string[];
};

/**
 * A `Client` for a local database file on one native libsql connection that keeps its prepared
 * statements. Results, errors and transaction rules are those of @libsql/client's `file:` client
 * with `concurrency: 1`; only the per-statement prepare work is gone.
 */
export function createLocalClient(path: string, options: LocalClientOptions = {}): LocalClient {
  return new LocalClient(path, options);
}

export class LocalClient implements Client {
  closed = false;
  readonly protocol = "file";
  readonly #path: string;
  readonly #intMode: IntMode;
  readonly #cacheSize: number;
  readonly #setup: string[];
  #connection: LocalConnection;
  // The open interactive transaction owns the connection; everything else fails fast meanwhile.
  #transaction: LocalTransaction | null = null;

  constructor(path: string, options: LocalClientOptions) {
    this.#path = path;
    this.#intMode = options.intMode ?? "number";
    this.#cacheSize = options.statementCacheSize ?? 500;
    this.#setup = options.setup ?? [];
    this.#connection = this.#open();
  }

  execute(stmt: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  async execute(stmtOrSql: InStatement, args?: InArgs): Promise<ResultSet> {
    const stmt = typeof stmtOrSql === "string" ? { sql: stmtOrSql, args: args || [] } : stmtOrSql;
    const connection = this.#borrow();
    try {
      return connection.execute(stmt);
    } finally {
      connection.rollbackIfOpen();
    }
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>, mode: TransactionMode = "deferred"): Promise<ResultSet[]> {
    const connection = this.#borrow();
    try {
      return runAll(connection, mode, stmts.map((stmt) => (Array.isArray(stmt) ? { sql: stmt[0], args: stmt[1] || [] } : stmt)));
    } finally {
      connection.rollbackIfOpen();
    }
  }

  async migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    const connection = this.#borrow();
    try {
      connection.execute("PRAGMA foreign_keys=off");
      return runAll(connection, "deferred", stmts);
    } finally {
      connection.rollbackIfOpen();
      connection.execute("PRAGMA foreign_keys=on");
      // Migrations may change columns without a leading CREATE/ALTER/DROP keyword we recognise.
      connection.clearStatementCache();
    }
  }

  async transaction(mode: TransactionMode = "write"): Promise<Transaction> {
    const connection = this.#borrow();
    try {
      connection.execute(transactionModeToBegin(mode));
    } catch (e) {
      connection.rollbackIfOpen();
      throw e;
    }
    const transaction = new LocalTransaction(connection, () => {
      if (this.#transaction === transaction) this.#transaction = null;
      if (connection.open) connection.rollbackIfOpen();
    });
    this.#transaction = transaction;
    return transaction;
  }

  async executeMultiple(sql: string): Promise<void> {
    const connection = this.#borrow();
    try {
      connection.executeMultiple(sql);
    } finally {
      connection.rollbackIfOpen();
    }
  }

  async sync(): Promise<Replicated> {
    const connection = this.#borrow();
    // A plain local file has no replica: the driver throws, as it does under @libsql/client.
    const report = (await connection.sync()) as { frames_synced: number; frame_no: number };
    return { frames_synced: report.frames_synced, frame_no: report.frame_no };
  }

  reconnect(): void {
    this.#connection.close();
    this.#transaction = null;
    this.#connection = this.#open();
    this.closed = false;
  }

  close(): void {
    this.closed = true;
    this.#transaction = null;
    this.#connection.close();
  }

  /** How the prepared-statement cache is doing (for tests and diagnostics). */
  statementCacheStats(): StatementCacheStats {
    return this.#connection.statementCacheStats();
  }

  #open(): LocalConnection {
    const connection = new LocalConnection(this.#path, this.#intMode, this.#cacheSize);
    try {
      // Fail fast if the file cannot be opened at all, as @libsql/client does.
      connection.execute("SELECT 1 AS checkThatTheDatabaseCanBeOpened");
      for (const sql of this.#setup) connection.execute(sql);
    } catch (e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  #borrow(): LocalConnection {
    if (this.closed) throw clientClosedError();
    if (this.#transaction !== null) {
      throw new LibsqlError(
        "This client has a single connection, which an open transaction is holding. " +
          "Commit or roll back the transaction before using the client again.",
        "TRANSACTION_ACTIVE",
      );
    }
    if (!this.#connection.open) {
      throw new LibsqlError("The connection was closed while this operation was in flight", "CLIENT_CLOSED");
    }
    return this.#connection;
  }
}

/** The BEGIN statement @libsql/client uses for each mode. */
function transactionModeToBegin(mode: TransactionMode): string {
  if (mode === "write") return "BEGIN IMMEDIATE";
  if (mode === "read") return "BEGIN TRANSACTION READONLY";
  if (mode === "deferred") return "BEGIN DEFERRED";
  throw RangeError('Unknown transaction mode, supported values are "write", "read" and "deferred"');
}

/** Runs the statements in one transaction and commits; the caller rolls back if anything threw. */
function runAll(connection: LocalConnection, mode: TransactionMode, stmts: InStatement[]): ResultSet[] {
  connection.execute(transactionModeToBegin(mode));
  const resultSets: ResultSet[] = [];
  for (let i = 0; i < stmts.length; i++) {
    try {
      if (!connection.inTransaction) throw batchRolledBackError(i);
      resultSets.push(connection.execute(stmts[i]));
    } catch (e) {
      throw toBatchError(e, i);
    }
  }
  connection.execute("COMMIT");
  return resultSets;
}
