import type { Client } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClientPair, describeResult, outcome } from "./client-pair.ts";

const schema = `
  CREATE TABLE parents (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
  CREATE TABLE children (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parents(id));
`;
const names = (client: Client) => client.execute("SELECT name FROM parents ORDER BY id").then((rs) => rs.rows.map((r) => r.name));

describe("createLocalClient: batch, migrate and transactions behave like @libsql/client", () => {
  let pair: ReturnType<typeof createClientPair>;
  beforeEach(async () => {
    pair = createClientPair();
    await pair.both(async (client) => {
      await client.execute("PRAGMA foreign_keys = ON");
      await client.executeMultiple(schema);
    });
  });
  afterEach(() => pair.cleanup());

  it("commits a write batch and returns one result per statement", async () => {
    const run = (client: Client) =>
      outcome(
        () =>
          client.batch(
            [
              { sql: "INSERT INTO parents (name) VALUES (?)", args: ["a"] },
              ["INSERT INTO parents (name) VALUES (?) RETURNING id", ["b"]],
              "SELECT count(*) AS n FROM parents",
            ],
            "write",
          ),
        (results) => results.map(describeResult),
      );
    const [expected, actual] = await pair.both(run);
    expect(actual).toEqual(expected);
    expect(await names(pair.local)).toEqual(["a", "b"]);
  });

  it.each(["write", "deferred", "read"] as const)("rolls a %s batch back on a constraint error with the same error", async (mode) => {
    await pair.both((client) => client.execute("INSERT INTO parents (name) VALUES ('kept')"));
    const run = (client: Client) =>
      outcome(() =>
        client.batch(
          [
            "INSERT INTO parents (name) VALUES ('first')",
            "INSERT INTO parents (name) VALUES ('kept')",
            "INSERT INTO parents (name) VALUES ('never')",
          ],
          mode,
        ),
      );
    const [expected, actual] = await pair.both(run);
    expect(actual).toEqual(expected);
    expect(actual).toMatchObject({
      error: { class: "LibsqlBatchError", code: "SQLITE_CONSTRAINT", extendedCode: "SQLITE_CONSTRAINT_UNIQUE", statementIndex: 1 },
    });
    expect(await names(pair.local)).toEqual(["kept"]);
    // The connection is usable again and not left inside the failed transaction.
    expect(await pair.local.execute("INSERT INTO parents (name) VALUES ('after')")).toMatchObject({ rowsAffected: 1 });
  });

  it("reports a foreign key violation in a batch with the same codes", async () => {
    const [expected, actual] = await pair.both((client) =>
      outcome(() => client.batch(["INSERT INTO children (parent_id) VALUES (123)"], "write")),
    );
    expect(actual).toEqual(expected);
    expect(actual).toMatchObject({ error: { extendedCode: "SQLITE_CONSTRAINT_FOREIGNKEY", statementIndex: 0 } });
  });

  it("migrates with foreign keys off during and on after", async () => {
    const migration = [
      "CREATE TABLE extra (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parents(id))",
      { sql: "INSERT INTO extra (parent_id) VALUES (?)", args: [77] },
      "PRAGMA foreign_keys",
    ];
    const [expected, actual] = await pair.both((client) => outcome(() => client.migrate(migration), (rs) => rs.map(describeResult)));
    expect(actual).toEqual(expected);
    const fk = await pair.both((client) => client.execute("PRAGMA foreign_keys").then((rs) => rs.rows[0][0]));
    expect(fk).toEqual([1, 1]);
    expect((await pair.local.execute("SELECT parent_id FROM extra")).rows[0][0]).toBe(77);
  });

  it("rolls a failing migration back and still turns foreign keys back on", async () => {
    const migration = ["CREATE TABLE doomed (id INTEGER PRIMARY KEY)", "INSERT INTO missing VALUES (1)"];
    const [expected, actual] = await pair.both((client) => outcome(() => client.migrate(migration)));
    expect(actual).toEqual(expected);
    expect(actual).toMatchObject({ error: { class: "LibsqlBatchError", code: "SQLITE_ERROR", statementIndex: 1 } });
    const tables = await pair.local.execute("SELECT name FROM sqlite_master WHERE name = 'doomed'");
    expect(tables.rows).toHaveLength(0);
    expect((await pair.local.execute("PRAGMA foreign_keys")).rows[0][0]).toBe(1);
  });

  it("commits an interactive transaction", async () => {
    const tx = await pair.local.transaction("write");
    await tx.execute({ sql: "INSERT INTO parents (name) VALUES (?)", args: ["tx"] });
    const inside = await tx.batch(["SELECT count(*) FROM parents"]);
    expect(inside[0].rows[0][0]).toBe(1);
    expect(tx.closed).toBe(false);
    await tx.commit();
    expect(tx.closed).toBe(true);
    expect(await names(pair.local)).toEqual(["tx"]);
  });

  it("rolls back an interactive transaction on rollback() and on close()", async () => {
    const tx = await pair.local.transaction("deferred");
    await tx.execute("INSERT INTO parents (name) VALUES ('gone')");
    await tx.rollback();
    const other = await pair.local.transaction("write");
    await other.execute("INSERT INTO parents (name) VALUES ('gone too')");
    other.close();
    expect(await names(pair.local)).toEqual([]);
    const [expected, actual] = await pair.both(async (client) => {
      const t = await client.transaction("write");
      t.close();
      return outcome(() => t.execute("SELECT 1"));
    });
    expect(actual).toEqual(expected);
    expect(actual).toMatchObject({ error: { code: "TRANSACTION_CLOSED" } });
  });

  it("fails other callers with TRANSACTION_ACTIVE while a transaction holds the connection, like the original", async () => {
    const txs = await pair.both((client) => client.transaction("write"));
    const [expected, actual] = await pair.both((client) => outcome(() => client.execute("SELECT 1")));
    expect(actual).toEqual({ error: expect.objectContaining({ code: "TRANSACTION_ACTIVE" }) });
    expect((expected as { error: { code: string } }).error.code).toBe("TRANSACTION_ACTIVE");
    const second = await outcome(() => pair.local.transaction("write"));
    expect(second).toMatchObject({ error: { code: "TRANSACTION_ACTIVE" } });
    for (const tx of txs) await tx.commit();
    expect((await pair.local.execute("SELECT 1 AS one")).rows[0].one).toBe(1);
  });

  it("does not keep a transaction that a plain execute opened, like the original", async () => {
    const [expected, actual] = await pair.both(async (client) => {
      await client.execute("BEGIN");
      await client.execute("INSERT INTO parents (name) VALUES ('autocommitted')");
      return outcome(() => client.execute("ROLLBACK"));
    });
    expect(actual).toEqual(expected);
    expect(await names(pair.local)).toEqual(["autocommitted"]);
  });
});
