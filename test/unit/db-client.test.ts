import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase } from "../../server/db/client.ts";

describe("openDatabase (file:)", () => {
  const dir = mkdtempSync(join(tmpdir(), "wf-db-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps WAL, NORMAL sync, busy timeout and foreign keys on every statement under concurrent load", async () => {
    const database = await openDatabase(`file:${join(dir, "app.db")}`);
    await migrateDatabase(database);
    const read = (pragma: string) => database.client.execute(`PRAGMA ${pragma}`).then((r) => Object.values(r.rows[0] ?? {})[0]);
    const results = await Promise.all(
      Array.from({ length: 50 }, async () => [await read("journal_mode"), await read("synchronous"), await read("busy_timeout"), await read("foreign_keys")]),
    );
    for (const r of results) expect(r).toEqual(["wal", 1, 5000, 1]);
    database.close();
  });
});
