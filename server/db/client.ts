import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type Client, createClient } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { createLocalClient } from "./local-client.ts";
import { localDatabasePath } from "./local-database-path.ts";
import * as schema from "./schema/index.ts";

/** The drizzle database; `$client` is the libSQL client under it (for compiled statements). */
export type Db = LibSQLDatabase<typeof schema> & { $client: Client };
export type Database = { db: Db; client: Client; close(): void };

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

// WAL lets readers go on while one writer commits; NORMAL is durable across process crashes.
const filePragmas = ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA busy_timeout = 5000"];

/** Opens the database named by `url`; for local files, creates the folder and turns on WAL. */
export async function openDatabase(url: string, authToken?: string): Promise<Database> {
  const isFile = url.startsWith("file:");
  const localPath = localDatabasePath(url);
  if (isFile) {
    const path = localPath ?? url.slice("file:".length).split("?")[0];
    if (path && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  }
  // Local files get one native connection that keeps its prepared statements: re-preparing every
  // statement was a large share of the service's CPU. PRAGMAs are per connection, so the client
  // re-applies them if it reconnects. In-memory and remote databases keep @libsql/client.
  if (localPath !== undefined) {
    const client = createLocalClient(localPath, { setup: [...filePragmas, "PRAGMA foreign_keys = ON"] });
    return wrap(client);
  }
  // One connection for other file: URLs too: the pool would open extra ones without the PRAGMAs.
  const client = createClient({ url, authToken, ...(isFile ? { concurrency: 1 } : {}) });
  if (isFile) for (const pragma of filePragmas) await client.execute(pragma);
  await client.execute("PRAGMA foreign_keys = ON");
  return wrap(client);
}

function wrap(client: Client): Database {
  const db = drizzle(client, { schema });
  return { db, client, close: () => client.close() };
}

export async function migrateDatabase(database: Database): Promise<void> {
  await migrate(database.db, { migrationsFolder });
}
