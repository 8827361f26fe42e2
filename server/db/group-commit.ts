import type { InStatement, ResultSet } from "@libsql/client";
import type { Database } from "./client.ts";

type Submission = { statements: InStatement[]; resolve: (results: ResultSet[]) => void; reject: (error: unknown) => void };

/** Most statements one shared transaction takes (well under SQLite's limits on a batch). */
const MAX_GROUP_STATEMENTS = 500;

/**
 * Group commit: write transactions submitted in the same turn of the event loop are committed as
 * one. Every submitter still learns only after its own statements are durable, and each sees its own
 * results; under concurrency there are far fewer transactions (each a WAL append and a moment of the
 * database's single write lock, which other processes queue for). A group the database refuses is
 * written again submission by submission, so one bad submission fails alone.
 */
export class GroupCommitter {
  readonly #database: Pick<Database, "client">;
  #pending: Submission[] = [];
  #scheduled = false;

  constructor(database: Pick<Database, "client">) {
    this.#database = database;
  }

  /** Commits `statements` atomically (all or none), together with whatever else is submitted now. */
  write(statements: InStatement[]): Promise<ResultSet[]> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ statements, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const all = this.#pending;
    this.#pending = [];
    for (let start = 0; start < all.length; ) {
      let end = start;
      let count = 0;
      while (end < all.length && (end === start || count + all[end].statements.length <= MAX_GROUP_STATEMENTS)) {
        count += all[end].statements.length;
        end++;
      }
      await this.#commit(all.slice(start, end));
      start = end;
    }
  }

  async #commit(group: Submission[]): Promise<void> {
    if (group.length === 1) return this.#commitAlone(group[0]);
    let results: ResultSet[];
    try {
      results = await this.#database.client.batch(group.flatMap((s) => s.statements), "write");
    } catch (error) {
      // A statement the database refused (a constraint, a busy lock): nothing was committed, so
      // each submission can be tried alone. Anything else (a remote database's connection dropping
      // mid-answer) may have committed: trying again could write twice (usage is a running sum), so
      // every submitter gets the error, as with a transaction of its own.
      if (!refusedByDatabase(error)) {
        for (const submission of group) submission.reject(error);
        return;
      }
      for (const submission of group) await this.#commitAlone(submission);
      return;
    }
    let at = 0;
    for (const submission of group) {
      submission.resolve(results.slice(at, at + submission.statements.length));
      at += submission.statements.length;
    }
  }

  async #commitAlone(submission: Submission): Promise<void> {
    try {
      submission.resolve(await this.#database.client.batch(submission.statements, "write"));
    } catch (error) {
      submission.reject(error);
    }
  }
}

/** Errors SQLite itself reported (codes SQLITE_...): the transaction did not commit. */
function refusedByDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_");
}
