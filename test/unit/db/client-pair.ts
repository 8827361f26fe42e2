import { type Client, createClient, type ResultSet } from "@libsql/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalClient, type LocalClient, type LocalClientOptions } from "../../../server/db/local-client.ts";

/** @libsql/client (single connection, as openDatabase used it) and the local client, each on its own fresh file. */
export function createClientPair(options: LocalClientOptions = {}): {
  original: Client;
  local: LocalClient;
  dir: string;
  both<T>(fn: (client: Client) => Promise<T>): Promise<[T, T]>;
  cleanup(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), "wf-local-client-"));
  const original = createClient({ url: `file:${join(dir, "original.db")}`, concurrency: 1 });
  const local = createLocalClient(join(dir, "local.db"), options);
  return {
    original,
    local,
    dir,
    both: async (fn) => [await fn(original), await fn(local)],
    cleanup: () => {
      original.close();
      local.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Everything observable about a result set, including each row's property descriptors. */
export function describeResult(rs: ResultSet) {
  return {
    columns: rs.columns,
    columnTypes: rs.columnTypes,
    rows: rs.rows.map((row) => ({ values: Array.from(row), keys: Object.keys(row), descriptors: Object.getOwnPropertyDescriptors(row) })),
    rowsAffected: rs.rowsAffected,
    lastInsertRowid: rs.lastInsertRowid,
    json: JSON.stringify(rs),
    ownKeys: Object.keys(rs),
  };
}

/** What a caller can see of a rejection: class, message and libsql codes. */
export function describeError(e: unknown) {
  if (!(e instanceof Error)) return { thrown: e };
  const err = e as Error & { code?: unknown; extendedCode?: unknown; rawCode?: unknown; statementIndex?: unknown };
  return {
    class: err.constructor.name,
    name: err.name,
    message: err.message,
    code: err.code,
    extendedCode: err.extendedCode,
    rawCode: err.rawCode,
    statementIndex: err.statementIndex,
  };
}

/** The outcome of `run`, as a value that can be compared between the two clients. */
export async function outcome<T>(run: () => Promise<T>, describe: (value: T) => unknown = (v) => v): Promise<unknown> {
  try {
    return { ok: describe(await run()) };
  } catch (e) {
    return { error: describeError(e) };
  }
}
