import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";
import type { GroupCommitter } from "./db/group-commit.ts";
import type { ModelGateway } from "./executor/providers/types.ts";
import type { License } from "./limits/license.ts";
import type { TokenReserves } from "./limits/token-reserve.ts";
import type { Logger } from "./logger.ts";
import type { JobWaker } from "./workers/job-waker.ts";
import type { GuardedFetch } from "./security/guarded-fetch.ts";
import type { SecretBox } from "./security/secret-box.ts";

/** Long-lived services built once at start-up and shared by every request and worker. */
export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  logger: Logger;
  license: License;
  /** This process's token reserves in front of the shared rate-limit buckets. */
  tokens: TokenReserves;
  /** This server process, e.g. as the owner of the runs it is executing (its `process:<id>` lease). */
  processId: string;
  /** Commits concurrent write transactions together (server/db/group-commit.ts). */
  writes: GroupCommitter;
  /** Wakes this process's job worker after work was queued. */
  jobs: JobWaker;
  /** The one way out to the network (HTTP request block, webhooks, model providers). */
  fetch: GuardedFetch;
  /** Model providers, over `fetch` (agent and router blocks). */
  models: ModelGateway;
  /** Seals and opens stored secrets (webhook trigger secrets) under ENCRYPTION_KEY. */
  secrets: SecretBox;
}

/** Who is calling. API keys act as their user. */
export type Actor =
  | { type: "anonymous" }
  | { type: "user"; userId: string; authType: "api_key"; apiKeyId: string }
  | { type: "admin" }
  | { type: "system" };

export interface RequestContext extends AppDeps {
  requestId: string;
  /** Request headers (case-insensitive lookups). */
  headers: Headers;
  /** Headers to add to the response, e.g. rate-limit headers. */
  resHeaders: Headers;
  /**
   * Success status to answer with when it is not the procedure's default (e.g. the response block's).
   * A holder object, because tRPC middlewares hand procedures a copy of the context.
   */
  response: { status?: number };
  actor: Actor;
}

export type UserContext = RequestContext & { actor: Extract<Actor, { type: "user" }> };

/** A request context acting as a user, for work that does not come through HTTP (scripts, jobs). */
export function userContext(deps: AppDeps, userId: string, apiKeyId = "none"): UserContext {
  return {
    ...deps,
    requestId: "internal",
    headers: new Headers(),
    resHeaders: new Headers(),
    response: {},
    actor: { type: "user", userId, authType: "api_key", apiKeyId },
  };
}
