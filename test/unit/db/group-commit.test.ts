import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../../server/db/client.ts";
import { GroupCommitter } from "../../../server/db/group-commit.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

describe("GroupCommitter", () => {
  let temp: Awaited<ReturnType<typeof createTempDatabase>>;
  let database: Database;

  beforeAll(async () => {
    temp = await createTempDatabase();
    database = temp.database;
    await database.client.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)");
  });
  afterAll(() => temp.cleanup());

  const insert = (id: number, text: string) => ({ sql: "INSERT INTO notes (id, text) VALUES (?, ?) RETURNING id", args: [id, text] });
  const ids = async () => (await database.client.execute("SELECT id FROM notes ORDER BY id")).rows.map((r) => Number(r[0]));

  it("commits writes submitted together in one transaction, each caller getting its own results", async () => {
    const committer = new GroupCommitter(database);
    const batch = vi.spyOn(database.client, "batch");
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => committer.write([insert(i + 1, `n${i}`), insert(i + 100, `m${i}`)])));
    expect(batch).toHaveBeenCalledTimes(1);
    expect(results.map((r) => r.map((rs) => Number(rs.rows[0][0])))).toEqual(Array.from({ length: 10 }, (_, i) => [i + 1, i + 100]));
    expect(await ids()).toHaveLength(20);
    batch.mockRestore();
  });

  it("fails only the submission that cannot be written; the others commit, and atomically", async () => {
    const committer = new GroupCommitter(database);
    const outcomes = await Promise.allSettled([
      committer.write([insert(201, "a")]),
      committer.write([insert(202, "b"), insert(203, "n0")]), // n0 exists: this submission fails whole
      committer.write([insert(204, "c")]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const written = await ids();
    expect(written).toContain(201);
    expect(written).toContain(204);
    expect(written).not.toContain(202);
    expect(written).not.toContain(203);
  });

  it("commits a write submitted later on its own", async () => {
    const committer = new GroupCommitter(database);
    await committer.write([insert(301, "x")]);
    await committer.write([insert(302, "y")]);
    expect(await ids()).toEqual(expect.arrayContaining([301, 302]));
  });
});

describe("GroupCommitter when the outcome is unknown", () => {
  it("rejects every submission of a group whose failure did not come from the database, trying none again", async () => {
    const client = { batch: vi.fn(async () => Promise.reject(new Error("socket hang up"))) };
    const committer = new GroupCommitter({ client } as never);
    const outcomes = await Promise.allSettled([
      committer.write([{ sql: "INSERT INTO t VALUES (1)", args: [] }]),
      committer.write([{ sql: "UPDATE usage SET cost = cost + 1", args: [] }]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    // One attempt only: the batch may have committed before the connection dropped.
    expect(client.batch).toHaveBeenCalledTimes(1);
  });
});
