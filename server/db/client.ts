import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type Client, createClient } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import * as schema from "./schema/index.ts";

export type Db = LibSQLDatabase<typeof schema>;
export type Database = { db: Db; client: Client; close(): void };

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** Opens the database named by `url`; for local files, creates the folder and turns on WAL. */
export async function openDatabase(url: string, authToken?: string): Promise<Database> {
  const isFile = url.startsWith("file:");
  if (isFile) {
    const path = url.slice("file:".length).split("?")[0];
    if (path && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  }
  // One connection for local files: PRAGMAs are per connection, and the pool would open extra ones
  // (without them) under concurrent load although statements run one at a time on this thread anyway.
  // We never hold interactive transactions open, so a single connection is not a bottleneck.
  const client = createClient({ url, authToken, ...(isFile ? { concurrency: 1 } : {}) });
  if (isFile) {
    // WAL lets readers go on while one writer commits; NORMAL is durable across process crashes.
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA synchronous = NORMAL");
    await client.execute("PRAGMA busy_timeout = 5000");
  }
  await client.execute("PRAGMA foreign_keys = ON");
  const db = drizzle(client, { schema });
  return { db, client, close: () => client.close() };
}

export async function migrateDatabase(database: Database): Promise<void> {
  await migrate(database.db, { migrationsFolder });
}
