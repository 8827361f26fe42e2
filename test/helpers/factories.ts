import { randomUUID } from "node:crypto";
import type { TestServer } from "./server.ts";

export type Tenant = { userId: string; workspaceId: string; apiKey: string };

async function json<T>(res: Response, expected: number): Promise<T> {
  const body = await res.json();
  if (res.status !== expected) throw new Error(`expected ${expected}, got ${res.status}: ${JSON.stringify(body)}`);
  return body as T;
}

export async function createUser(server: TestServer, name = "User"): Promise<string> {
  const res = await server.admin("/api/v1/admin/users", {
    method: "POST",
    json: { email: `${randomUUID()}@example.com`, name },
  });
  return (await json<{ data: { id: string } }>(res, 201)).data.id;
}

export async function createWorkspace(server: TestServer, ownerId: string, name = "Workspace"): Promise<string> {
  const res = await server.admin("/api/v1/admin/workspaces", { method: "POST", json: { name, ownerId } });
  return (await json<{ data: { id: string } }>(res, 201)).data.id;
}

export async function createApiKey(server: TestServer, userId: string): Promise<string> {
  const res = await server.admin(`/api/v1/admin/users/${userId}/api-keys`, { method: "POST", json: { name: "test" } });
  return (await json<{ data: { key: string } }>(res, 201)).data.key;
}

/** A user owning a workspace, with an API key. */
export async function createTenant(server: TestServer): Promise<Tenant> {
  const userId = await createUser(server);
  const workspaceId = await createWorkspace(server, userId);
  const apiKey = await createApiKey(server, userId);
  return { userId, workspaceId, apiKey };
}
