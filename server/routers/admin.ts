import { admin as c } from "../../contract/index.ts";
import { createApiKey } from "../services/admin/create-api-key.ts";
import { createUser } from "../services/admin/create-user.ts";
import { createWorkspace } from "../services/admin/create-workspace.ts";
import { listUsers } from "../services/admin/list-users.ts";
import { listWorkspaces } from "../services/admin/list-workspaces.ts";
import { runWorkflow } from "../services/admin/run-workflow.ts";
import { adminProcedure as p, router } from "../trpc.ts";

export const adminRouter = router({
  createUser: p.meta(c.createUser.meta).input(c.createUser.input).output(c.createUser.output)
    .mutation(async ({ ctx, input }) => ({ data: await createUser({ ctx, input }) })),
  listUsers: p.meta(c.listUsers.meta).input(c.listUsers.input).output(c.listUsers.output)
    .query(({ ctx, input }) => listUsers({ ctx, input })),
  createWorkspace: p.meta(c.createWorkspace.meta).input(c.createWorkspace.input).output(c.createWorkspace.output)
    .mutation(async ({ ctx, input }) => ({ data: await createWorkspace({ ctx, input }) })),
  listWorkspaces: p.meta(c.listWorkspaces.meta).input(c.listWorkspaces.input).output(c.listWorkspaces.output)
    .query(({ ctx, input }) => listWorkspaces({ ctx, input })),
  createApiKey: p.meta(c.createApiKey.meta).input(c.createApiKey.input).output(c.createApiKey.output)
    .mutation(async ({ ctx, input }) => ({ data: await createApiKey({ ctx, input }) })),
  runWorkflow: p.meta(c.runWorkflow.meta).input(c.runWorkflow.input).output(c.runWorkflow.output)
    .mutation(({ ctx, input }) => runWorkflow({ ctx, input })),
});
