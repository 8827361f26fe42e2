import { createClient } from "@libsql/client";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/libsql";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClientPair, describeResult } from "./client-pair.ts";

describe("createLocalClient: prepared statement cache", () => {
  let pair: ReturnType<typeof createClientPair>;
  beforeEach(async () => {
    pair = createClientPair({ statementCacheSize: 3 });
    await pair.both((client) => client.executeMultiple("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);"));
  });
  afterEach(() => pair.cleanup());

  it("prepares the same SQL once and reuses it with new arguments", async () => {
    const before = pair.local.statementCacheStats();
    const insert = "INSERT INTO t (name) VALUES (?)";
    await pair.local.execute(insert, ["a"]);
    await pair.local.execute(insert, ["b"]);
    const select = await pair.local.execute("SELECT name FROM t WHERE id = ?", [2]);
    const again = await pair.local.execute("SELECT name FROM t WHERE id = ?", [1]);
    const after = pair.local.statementCacheStats();
    expect(after.prepares - before.prepares).toBe(2);
    expect(after.hits - before.hits).toBe(2);
    expect([select.rows[0].name, again.rows[0].name]).toEqual(["b", "a"]);
  });

  it("evicts the least recently used statement beyond its capacity", async () => {
    const queries = ["SELECT 1", "SELECT 2", "SELECT 3"];
    for (const q of queries) await pair.local.execute(q);
    await pair.local.execute("SELECT 1"); // now most recent; "SELECT 2" is the oldest
    const before = pair.local.statementCacheStats();
    await pair.local.execute("SELECT 4");
    expect(pair.local.statementCacheStats()).toMatchObject({ size: 3, capacity: 3, prepares: before.prepares + 1 });
    await pair.local.execute("SELECT 1");
    expect(pair.local.statementCacheStats().prepares).toBe(before.prepares + 1);
    await pair.local.execute("SELECT 2");
    expect(pair.local.statementCacheStats().prepares).toBe(before.prepares + 2);
  });

  it("sees renamed columns after ALTER TABLE through the same client", async () => {
    const select = "SELECT * FROM t ORDER BY id";
    // Same column count, so only dropping cached statements on DDL can notice it.
    const alter = "ALTER TABLE t RENAME COLUMN name TO label";
    const [expected, actual] = await pair.both(async (client) => {
      await client.execute("INSERT INTO t (name) VALUES ('a')");
      await client.execute(select);
      await client.execute(alter);
      return describeResult(await client.execute(select));
    });
    expect(actual).toEqual(expected);
    expect(actual.columns).toEqual(["id", "label"]);
  });

  it("sees new columns after another connection changes the schema", async () => {
    await pair.local.execute("INSERT INTO t (name) VALUES ('a')");
    const select = "SELECT * FROM t";
    expect((await pair.local.execute(select)).columns).toEqual(["id", "name"]);
    const other = createClient({ url: `file:${join(pair.dir, "local.db")}` });
    await other.execute("ALTER TABLE t ADD COLUMN late INTEGER DEFAULT 7");
    other.close();
    const rs = await pair.local.execute(select);
    expect(rs.columns).toEqual(["id", "name", "late"]);
    expect(rs.rows[0].late).toBe(7);
  });

  it("does not pin a read snapshot: other connections' writes are seen and the WAL checkpoints fully", async () => {
    await pair.local.execute("PRAGMA journal_mode = WAL");
    await pair.local.execute("INSERT INTO t (name) VALUES ('a')");
    await pair.local.execute("SELECT * FROM t");
    await pair.local.execute("SELECT count(*) FROM t");
    const other = createClient({ url: `file:${join(pair.dir, "local.db")}` });
    await other.execute("INSERT INTO t (name) VALUES ('from other')");
    const checkpoint = await other.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    other.close();
    expect(checkpoint.rows[0][0]).toBe(0); // 0 = not blocked by a reader
    expect((await pair.local.execute("SELECT count(*) FROM t")).rows[0][0]).toBe(2);
  });
});

const things = sqliteTable("things", {
  id: integer("id").primaryKey(),
  name: text("name").notNull().unique(),
  size: integer("size"),
});

describe("createLocalClient under drizzle", () => {
  let pair: ReturnType<typeof createClientPair>;
  beforeEach(async () => {
    pair = createClientPair();
    await pair.both((client) => client.executeMultiple("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, size INTEGER);"));
  });
  afterEach(() => pair.cleanup());

  it("gives the same answers to get/all/values/run, batch and transaction", async () => {
    const [expected, actual] = await pair.both(async (client) => {
      const db = drizzle(client);
      const inserted = await db.insert(things).values([{ name: "a", size: 1 }, { name: "b" }]).returning();
      const run = await db.update(things).set({ size: 5 }).where(eq(things.name, "b")).run();
      const one = await db.select().from(things).where(eq(things.name, "b")).get();
      const all = await db.select({ n: things.name }).from(things).all();
      const values = await db.select().from(things).values();
      const raw = await db.all(sql`SELECT name, size FROM things ORDER BY id`);
      const batch = await db.batch([db.insert(things).values({ name: "c" }), db.select().from(things)]);
      const failedBatch = await db.batch([db.insert(things).values({ name: "d" }), db.insert(things).values({ name: "a" })]).catch((e) => e.code);
      const committed = await db.transaction(async (tx) => {
        await tx.insert(things).values({ name: "e" });
        return tx.select().from(things).all();
      });
      const rolledBack = await db
        .transaction(async (tx) => {
          await tx.insert(things).values({ name: "f" });
          tx.rollback();
        })
        .catch((e) => e.constructor.name);
      const final = await db.select().from(things).all();
      return { inserted, run: describeResult(run), one, all, values, raw, batch: [batch[0].rowsAffected, batch[1]], failedBatch, committed, rolledBack, final };
    });
    expect(actual).toEqual(expected);
    expect(actual.final.map((t) => t.name)).toEqual(["a", "b", "c", "e"]);
  });
});
