import { randomBytes } from "node:crypto";
import { type AppDeps, userContext } from "../server/context.ts";
import { createApiKey } from "../server/services/admin/create-api-key.ts";
import { createUser } from "../server/services/admin/create-user.ts";
import { createWorkspace } from "../server/services/admin/create-workspace.ts";
import { createWorkflow } from "../server/services/workflows/create-workflow.ts";
import { deployWorkflow } from "../server/services/workflows/deploy-workflow.ts";

export type DemoSeed = { userId: string; workspaceId: string; apiKey: string; workflowId: string; apiWorkflowId: string };

/**
 * A demo user with a workspace, an API key, and two deployed workflows: "Greeting" (start ->
 * response, runs offline) and "Fetch a post" (start -> HTTP request block -> response).
 */
export async function seedDemo(deps: AppDeps): Promise<DemoSeed> {
  const tag = randomBytes(3).toString("hex");
  const user = await createUser({ ctx: deps, input: { email: `demo-${tag}@example.com`, name: "Demo user" } });
  const workspace = await createWorkspace({ ctx: deps, input: { name: `Demo workspace ${tag}`, ownerId: user.id } });
  const key = await createApiKey({ ctx: deps, input: { userId: user.id, name: "demo" } });
  const ctx = userContext(deps, user.id, key.id);
  const greeting = await createWorkflow({
    ctx,
    input: {
      workspaceId: workspace.id,
      name: "Greeting",
      description: "Answers with a greeting for <start.name>",
      state: {
        blocks: {
          start: { type: "start", name: "Start" },
          respond: {
            type: "response",
            name: "Respond",
            params: { data: { message: "Hello, <start.name>!", received: "<start>" }, status: 200 },
          },
        },
        edges: [{ source: "start", target: "respond" }],
        loops: {},
        parallels: {},
      },
    },
  });
  const fetchPost = await createWorkflow({
    ctx,
    input: {
      workspaceId: workspace.id,
      name: "Fetch a post",
      description: "Calls a public JSON API with the HTTP request block",
      state: {
        blocks: {
          start: { type: "start", name: "Start" },
          fetch: {
            type: "api",
            name: "Fetch Post",
            params: {
              url: "https://jsonplaceholder.typicode.com/posts/{id}",
              method: "GET",
              pathParams: { id: "<start.postId>" },
              timeoutMs: 10000,
              retries: 2,
            },
          },
          respond: {
            type: "response",
            name: "Respond",
            params: { data: { title: "<fetchpost.data.title>", status: "<fetchpost.status>" } },
          },
        },
        edges: [
          { source: "start", target: "fetch" },
          { source: "fetch", target: "respond" },
        ],
        loops: {},
        parallels: {},
      },
    },
  });
  await deployWorkflow({ ctx, input: { id: greeting.id } });
  await deployWorkflow({ ctx, input: { id: fetchPost.id } });
  return { userId: user.id, workspaceId: workspace.id, apiKey: key.key, workflowId: greeting.id, apiWorkflowId: fetchPost.id };
}
