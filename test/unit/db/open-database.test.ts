import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase } from "../../../server/db/client.ts";
import { LocalClient } from "../../../server/db/local-client.ts";
import { localDatabasePath } from "../../../server/db/local-database-path.ts";

const pragmas = async (database: { client: { execute(sql: string): Promise<{ rows: Array<{ [i: number]: unknown }> }> } }) => {
  const out: unknown[] = [];
  for (const p of ["journal_mode", "synchronous", "busy_timeout", "foreign_keys"]) out.push((await database.client.execute(`PRAGMA ${p}`)).rows[0][0]);
  return out;
};

describe("openDatabase", () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-open-db-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("uses the local client for a file: URL, creating the folder, with the PRAGMAs, and migrates", async () => {
    const database = await openDatabase(`file:${join(dir, "nested", "app.db")}`);
    try {
      expect(database.client).toBeInstanceOf(LocalClient);
      expect(await pragmas(database)).toEqual(["wal", 1, 5000, 1]);
      await migrateDatabase(database);
      await migrateDatabase(database); // already applied: a no-op
      const tables = await database.client.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'");
      expect(Number(tables.rows[0][0])).toBeGreaterThan(1);
    } finally {
      database.close();
    }
  });

  it("re-applies the per-connection PRAGMAs after reconnect()", async () => {
    const database = await openDatabase(`file:${join(dir, "reconnect.db")}`);
    try {
      database.client.close();
      database.client.reconnect();
      expect(database.client.closed).toBe(false);
      expect(await pragmas(database)).toEqual(["wal", 1, 5000, 1]);
    } finally {
      database.close();
    }
  });

  it("keeps @libsql/client for in-memory databases", async () => {
    for (const url of ["file::memory:", ":memory:"]) {
      const database = await openDatabase(url);
      try {
        expect(database.client).not.toBeInstanceOf(LocalClient);
        expect((await database.client.execute("PRAGMA foreign_keys")).rows[0][0]).toBe(1);
      } finally {
        database.close();
      }
    }
  });
});

describe("localDatabasePath", () => {
  it.each([
    ["file:data/app.db", "data/app.db"],
    ["file:/abs/app.db", "/abs/app.db"],
    ["file:///abs/app.db", "/abs/app.db"],
    ["file://localhost/abs/app.db", "/abs/app.db"],
    ["file:/with%20space/app.db", "/with space/app.db"],
    ["file::memory:", undefined],
    ["file::memory:?cache=shared", undefined],
    ["file:app.db?mode=ro", undefined],
    ["file://otherhost/app.db", undefined],
    ["file:", undefined],
    [":memory:", undefined],
    ["libsql://example.turso.io", undefined],
  ])("%s -> %s", (url, expected) => {
    expect(localDatabasePath(url)).toBe(expected);
  });
});
