import { Buffer } from "node:buffer";
import type { InValue, IntMode, ResultSet, Row, Value } from "@libsql/client";

// Conversions between JS values and what the native driver binds/returns. They copy
// @libsql/client's sqlite3 client (valueToSql, valueFromSql, rowFromSql, ResultSetImpl) so that a
// caller cannot tell the two clients apart.

/** What the native statement accepts as a bound value. */
export type SqlValue = null | string | number | bigint | Buffer | Uint8Array;

const minSafeBigint = -9007199254740991n;
const maxSafeBigint = 9007199254740991n;
const minInteger = -9223372036854775808n;
const maxInteger = 9223372036854775807n;

export function valueToSql(value: InValue, intMode: IntMode): SqlValue {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
    }
    return value;
  }
  if (typeof value === "bigint") {
    if (value < minInteger || value > maxInteger) {
      throw new RangeError("bigint is too large to be represented as a 64-bit integer and passed as argument");
    }
    return value;
  }
  if (typeof value === "boolean") {
    if (intMode === "bigint") return value ? 1n : 0n;
    if (intMode === "string") return value ? "1" : "0";
    return value ? 1 : 0;
  }
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

export function valueFromSql(sqlValue: unknown, intMode: IntMode): Value {
  if (typeof sqlValue === "bigint") {
    if (intMode === "number") {
      if (sqlValue < minSafeBigint || sqlValue > maxSafeBigint) {
        throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
      }
      return Number(sqlValue);
    }
    if (intMode === "bigint") return sqlValue;
    if (intMode === "string") return "" + sqlValue;
    throw new Error("Invalid value for IntMode");
  }
  // The whole backing ArrayBuffer, as @libsql/client returns it.
  if (sqlValue instanceof Buffer) return sqlValue.buffer as ArrayBuffer;
  return sqlValue as Value;
}

/** A row as @libsql/client builds it: non-enumerable indexes and length, enumerable first-seen column names. */
export function rowFromSql(sqlRow: unknown[], columns: string[], intMode: IntMode): Row {
  const row = {} as Row;
  Object.defineProperty(row, "length", { value: sqlRow.length });
  for (let i = 0; i < sqlRow.length; ++i) {
    const value = valueFromSql(sqlRow[i], intMode);
    Object.defineProperty(row, i, { value });
    const column = columns[i];
    if (!Object.hasOwn(row, column)) {
      Object.defineProperty(row, column, { value, enumerable: true, configurable: true, writable: true });
    }
  }
  return row;
}

/** Same fields and `toJSON()` as @libsql/client's ResultSetImpl. */
export class LocalResultSet implements ResultSet {
  constructor(
    public columns: string[],
    public columnTypes: string[],
    public rows: Row[],
    public rowsAffected: number,
    public lastInsertRowid: bigint | undefined,
  ) {}

  toJSON() {
    return {
      columns: this.columns,
      columnTypes: this.columnTypes,
      rows: this.rows.map((row) => Array.prototype.map.call(row, valueToJson)),
      rowsAffected: this.rowsAffected,
      lastInsertRowid: this.lastInsertRowid !== undefined ? "" + this.lastInsertRowid : null,
    };
  }
}

function valueToJson(value: Value): unknown {
  if (typeof value === "bigint") return "" + value;
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString("base64");
  return value;
}
