import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../server/clock.ts";
import type { AppDeps } from "../../../server/context.ts";
import { apiKeys, users, workspacePermissions, workspaces } from "../../../server/db/schema/index.ts";
import { generateApiKey } from "../../../server/security/api-keys.ts";
import { authenticateApiKey } from "../../../server/services/auth/authenticate-api-key.ts";
import { getWorkspacePermission } from "../../../server/services/auth/require-workspace-permission.ts";
import { createTempDatabase } from "../../helpers/temp-database.ts";

const START = Date.UTC(2026, 0, 15, 12);

describe("API key authentication and workspace permissions", () => {
  let temp: Awaited<ReturnType<typeof createTempDatabase>>;
  let clock: ManualClock;
  let ctx: AppDeps;
  let key: string;

  beforeEach(async () => {
    temp = await createTempDatabase();
    clock = new ManualClock(START);
    ctx = { db: temp.database.db, database: temp.database, clock } as unknown as AppDeps;
    const { db } = temp.database;
    await db.insert(users).values([
      { id: "usr_1", email: "one@example.com", name: "One", createdAt: START },
      { id: "usr_2", email: "two@example.com", name: "Two", createdAt: START },
    ]);
    await db.insert(workspaces).values([
      { id: "ws_1", name: "One", ownerId: "usr_1", createdAt: START },
      { id: "ws_2", name: "Two", ownerId: "usr_2", createdAt: START },
    ]);
    await db.insert(workspacePermissions).values([
      { workspaceId: "ws_1", userId: "usr_1", permission: "admin", createdAt: START },
      { workspaceId: "ws_2", userId: "usr_2", permission: "admin", createdAt: START },
      { workspaceId: "ws_2", userId: "usr_1", permission: "read", createdAt: START },
    ]);
    const generated = generateApiKey();
    key = generated.key;
    await db.insert(apiKeys).values({
      id: "key_1",
      userId: "usr_1",
      name: "test",
      keyHash: generated.hash,
      prefix: generated.prefix,
      createdAt: START,
    });
  });
  afterEach(() => temp.cleanup());

  const lastUsedAt = async () =>
    (await temp.database.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, "key_1")).get())?.at;

  it("resolves a known key to its user and refuses unknown ones", async () => {
    expect(await authenticateApiKey({ ctx, key })).toEqual({ userId: "usr_1", apiKeyId: "key_1" });
    expect(await authenticateApiKey({ ctx, key: `${key}x` })).toBeNull();
    expect(await authenticateApiKey({ ctx, key: "" })).toBeNull();
  });

  it("records when a key was last used, at most once a minute", async () => {
    expect(await lastUsedAt()).toBeNull();
    await authenticateApiKey({ ctx, key });
    expect(await lastUsedAt()).toBe(START);
    clock.advance(60_000);
    await authenticateApiKey({ ctx, key });
    expect(await lastUsedAt()).toBe(START);
    clock.advance(1);
    await authenticateApiKey({ ctx, key });
    expect(await lastUsedAt()).toBe(START + 60_001);
  });

  it("reads the user's own permission on each workspace", async () => {
    expect(await getWorkspacePermission(ctx, "usr_1", "ws_1")).toBe("admin");
    expect(await getWorkspacePermission(ctx, "usr_1", "ws_2")).toBe("read");
    expect(await getWorkspacePermission(ctx, "usr_2", "ws_1")).toBeNull();
    expect(await getWorkspacePermission(ctx, "usr_2", "ws_3")).toBeNull();
  });
});
