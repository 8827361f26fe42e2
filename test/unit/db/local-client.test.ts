import type { Client, InStatement } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClientPair, describeResult, outcome } from "./client-pair.ts";

const schema = `
  CREATE TABLE items (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    score REAL,
    data BLOB,
    flag INTEGER,
    big INTEGER,
    created_at INTEGER
  );
`;

// Each entry runs on both clients, in order, against the same starting data.
const statements: Array<[string, InStatement | [string, unknown[]]]> = [
  ["insert, positional args of every kind", {
    sql: "INSERT INTO items (name, score, data, flag, big, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    args: ["alpha", 1.5, new Uint8Array([1, 2, 3]), true, 42n, new Date(1_700_000_000_000)],
  }],
  ["insert with ArrayBuffer blob and false", {
    sql: "INSERT INTO items (name, data, flag) VALUES (?, ?, ?)",
    args: ["beta", new Uint8Array([9, 8]).buffer, false],
  }],
  ["insert returning, named args with $ : @ prefixes", {
    sql: "INSERT INTO items (name, score, flag) VALUES ($name, :score, @flag) RETURNING id, name, score",
    args: { $name: "gamma", ":score": 2.25, "@flag": 1 },
  }],
  ["insert returning, bare names", { sql: "INSERT INTO items (name) VALUES (:name) RETURNING *", args: { name: "delta" } }],
  ["update without returning", { sql: "UPDATE items SET score = score * 2 WHERE score IS NOT NULL", args: [] }],
  ["update touching nothing", { sql: "UPDATE items SET score = 0 WHERE id = ?", args: [999] }],
  ["count", "SELECT count(*) AS n FROM items"],
  ["select *, positional", { sql: "SELECT * FROM items WHERE id >= ? ORDER BY id", args: [1] }],
  ["select named", { sql: "SELECT id, name, data FROM items WHERE name = $name", args: { name: "alpha" } }],
  ["nulls and expressions", "SELECT NULL AS nothing, 1 + 1, 'x' || name AS label, length(data) FROM items ORDER BY id"],
  ["duplicate and numeric column names", "SELECT 1 AS a, 2 AS a, 3 AS '0', name AS name, id AS name FROM items LIMIT 1"],
  ["empty result", { sql: "SELECT * FROM items WHERE name = ?", args: ["nobody"] }],
  ["store a big integer", { sql: "INSERT INTO items (name, big) VALUES (?, ?)", args: ["huge", 2n ** 60n] }],
  ["read a big integer (RangeError)", "SELECT big FROM items WHERE name = 'huge'"],
  ["largest safe integer", "SELECT 9007199254740991 AS max, -9007199254740991 AS min"],
  ["bigint arg out of range", { sql: "SELECT ?", args: [2n ** 70n] }],
  ["undefined arg", { sql: "SELECT ?", args: [undefined as unknown as null] }],
  ["NaN arg", { sql: "SELECT ?", args: [Number.NaN] }],
  ["object arg", { sql: "SELECT ?", args: [{} as unknown as null] }],
  ["unique violation", { sql: "INSERT INTO items (name) VALUES (?)", args: ["alpha"] }],
  ["not null violation", { sql: "INSERT INTO items (name) VALUES (NULL)", args: [] }],
  ["syntax error", "SELEC 1"],
  ["missing table", "SELECT * FROM nowhere"],
  ["empty statement", ""],
  ["pragma returning data", "PRAGMA foreign_keys"],
  ["pragma without data", "PRAGMA foreign_keys = ON"],
  ["delete", { sql: "DELETE FROM items WHERE name IN (?, ?)", args: ["beta", "huge"] }],
  ["array-form statement", ["SELECT name FROM items WHERE id = ?", [1]]],
];

// Guards against both clients failing the same way for an unrelated reason (e.g. a missing table).
const landmarks: Record<string, object> = {
  "insert, positional args of every kind": { ok: { rowsAffected: 1, lastInsertRowid: 1n, columns: [] } },
  "insert returning, named args with $ : @ prefixes": { ok: { columns: ["id", "name", "score"], rows: [{ values: [3, "gamma", 2.25] }] } },
  count: { ok: { rows: [{ values: [4], keys: ["n"] }] } },
  "read a big integer (RangeError)": { error: { class: "RangeError" } },
  "unique violation": { error: { class: "LibsqlError", code: "SQLITE_CONSTRAINT", extendedCode: "SQLITE_CONSTRAINT_UNIQUE", rawCode: 2067 } },
  "syntax error": { error: { class: "LibsqlError", code: "SQLITE_ERROR" } },
  "delete": { ok: { rowsAffected: 2 } },
};

describe("createLocalClient: same results as @libsql/client", () => {
  const pair = createClientPair();
  beforeAll(async () => {
    await pair.both((client) => client.executeMultiple(schema));
  });
  afterAll(() => pair.cleanup());

  it.each(statements)("%s", async (label, stmt) => {
    const run = (client: Client) =>
      outcome(() => (Array.isArray(stmt) ? client.execute(stmt[0], stmt[1] as never) : client.execute(stmt)), describeResult);
    const [expected, actual] = await pair.both(run);
    expect(actual).toEqual(expected);
    if (label in landmarks) expect(actual).toMatchObject(landmarks[label]);
  });

  it("returns each result's arrays as its own (the cache does not share them)", async () => {
    const first = await pair.local.execute("SELECT id, name FROM items");
    first.columns.push("tampered");
    const second = await pair.local.execute("SELECT id, name FROM items");
    expect(second.columns).toEqual(["id", "name"]);
  });

  it("has the same public members and protocol", () => {
    expect(pair.local.protocol).toBe(pair.original.protocol);
    expect(pair.local.closed).toBe(false);
  });

  it("rejects sync() on a plain file like the original", async () => {
    const [expected, actual] = await pair.both((client) => outcome(() => client.sync()));
    expect(actual).toEqual(expected);
    expect(actual).toHaveProperty("error");
  });
});

describe("createLocalClient: closed client", () => {
  it("rejects every operation with CLIENT_CLOSED like the original", async () => {
    const pair = createClientPair();
    try {
      pair.original.close();
      pair.local.close();
      const operations: Array<[string, (c: Client) => Promise<unknown>]> = [
        ["execute", (c) => c.execute("SELECT 1")],
        ["batch", (c) => c.batch(["SELECT 1"], "write")],
        ["migrate", (c) => c.migrate(["SELECT 1"])],
        ["transaction", (c) => c.transaction("write")],
        ["executeMultiple", (c) => c.executeMultiple("SELECT 1;")],
      ];
      for (const [name, op] of operations) {
        const [expected, actual] = await pair.both((client) => outcome(() => op(client)));
        expect(actual, name).toEqual(expected);
        expect(actual, name).toMatchObject({ error: { code: "CLIENT_CLOSED" } });
      }
      expect(pair.local.closed).toBe(true);
      expect(() => pair.local.close()).not.toThrow();
    } finally {
      pair.cleanup();
    }
  });

  it("fails to open a file in a missing folder at creation, like the original", async () => {
    const { createLocalClient } = await import("../../../server/db/local-client.ts");
    expect(() => createLocalClient("/nonexistent-dir-for-test/sub/app.db")).toThrow(/Unable to open connection/);
  });
});
