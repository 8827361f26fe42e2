import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, migrateDatabase, openDatabase } from "../../server/db/client.ts";

/** A migrated libSQL file in a fresh temp dir; `open()` adds more clients on the same file. */
export async function createTempDatabase(): Promise<{
  database: Database;
  url: string;
  open(): Promise<Database>;
  cleanup(): void;
}> {
  const dir = mkdtempSync(join(tmpdir(), "wf-db-"));
  const url = `file:${join(dir, "app.db")}`;
  const database = await openDatabase(url);
  await migrateDatabase(database);
  const extra: Database[] = [];
  return {
    database,
    url,
    open: async () => {
      const other = await openDatabase(url);
      extra.push(other);
      return other;
    },
    cleanup: () => {
      for (const d of [database, ...extra]) d.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
