import { LibsqlBatchError, LibsqlError } from "@libsql/client";
import Database from "libsql";

// Error shapes copied from @libsql/client's sqlite3 client (mapSqliteError and the batch wrapping),
// so callers keep matching on the same `code` / `extendedCode` values.

const sqliteErrorCodes: Record<number, string> = {
  1: "SQLITE_ERROR",
  2: "SQLITE_INTERNAL",
  3: "SQLITE_PERM",
  4: "SQLITE_ABORT",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  7: "SQLITE_NOMEM",
  8: "SQLITE_READONLY",
  9: "SQLITE_INTERRUPT",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  12: "SQLITE_NOTFOUND",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  15: "SQLITE_PROTOCOL",
  16: "SQLITE_EMPTY",
  17: "SQLITE_SCHEMA",
  18: "SQLITE_TOOBIG",
  19: "SQLITE_CONSTRAINT",
  20: "SQLITE_MISMATCH",
  21: "SQLITE_MISUSE",
  22: "SQLITE_NOLFS",
  23: "SQLITE_AUTH",
  24: "SQLITE_FORMAT",
  25: "SQLITE_RANGE",
  26: "SQLITE_NOTADB",
  27: "SQLITE_NOTICE",
  28: "SQLITE_WARNING",
};

// Extended codes are base | (extended << 8), so the base code is the low byte.
function baseCode(rawCode: number | undefined): string {
  if (rawCode === undefined) return "SQLITE_UNKNOWN";
  const base = rawCode & 0xff;
  return sqliteErrorCodes[base] ?? `SQLITE_UNKNOWN_${base.toString()}`;
}

/** Turns the driver's SqliteError into a LibsqlError; anything else passes through unchanged. */
export function mapSqliteError(e: unknown): unknown {
  if (e instanceof Database.SqliteError) {
    return new LibsqlError(e.message, baseCode(e.rawCode), e.code, e.rawCode, e);
  }
  return e;
}

/** Wraps a failure of statement `index` of a batch the way @libsql/client does. */
export function toBatchError(e: unknown, index: number): unknown {
  if (e instanceof LibsqlBatchError) return e;
  if (e instanceof LibsqlError) {
    return new LibsqlBatchError(e.message, index, e.code, e.extendedCode, e.rawCode, e.cause instanceof Error ? e.cause : undefined);
  }
  return e;
}

export function clientClosedError(): LibsqlError {
  return new LibsqlError("The client is closed", "CLIENT_CLOSED");
}

export function transactionClosedError(): LibsqlError {
  return new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
}

export function batchRolledBackError(index: number): LibsqlBatchError {
  return new LibsqlBatchError("The transaction has been rolled back", index, "TRANSACTION_CLOSED");
}
