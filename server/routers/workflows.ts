import type { Context } from "hono";
import { workflows as c } from "../../contract/index.ts";
import type { RequestContext } from "../context.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { authenticateRequest } from "../services/auth/authenticate-request.ts";
import { createWorkflow } from "../services/workflows/create-workflow.ts";
import { deleteWorkflow } from "../services/workflows/delete-workflow.ts";
import { deployWorkflow } from "../services/workflows/deploy-workflow.ts";
import { type ExecutionAnswer, executeWorkflow } from "../services/workflows/execute-workflow.ts";
import { getWorkflow } from "../services/workflows/get-workflow.ts";
import { getWorkflowStatus } from "../services/workflows/get-workflow-status.ts";
import { listWorkflows } from "../services/workflows/list-workflows.ts";
import { undeployWorkflow } from "../services/workflows/undeploy-workflow.ts";
import { updateWorkflow } from "../services/workflows/update-workflow.ts";
import { queueExecution } from "../services/workflows/queue-execution.ts";
import { executionRequestFromBody } from "../services/workflows/workflow-input-from-body.ts";
import { publicBaseUrl, wantsAsync } from "../http/execution-mode.ts";
import { apiKeyProcedure as p, router } from "../trpc.ts";

// Static paths first: `{id}` matches any segment.
export const workflowsRouter = router({
  create: p.meta(c.createWorkflow.meta).input(c.createWorkflow.input).output(c.createWorkflow.output)
    .mutation(async ({ ctx, input }) => ({ data: await createWorkflow({ ctx, input }) })),
  list: p.meta(c.listWorkflows.meta).input(c.listWorkflows.input).output(c.listWorkflows.output)
    .query(async ({ ctx, input }) => ({ data: await listWorkflows({ ctx, input }) })),
  get: p.meta(c.getWorkflow.meta).input(c.getWorkflow.input).output(c.getWorkflow.output)
    .query(async ({ ctx, input }) => ({ data: await getWorkflow({ ctx, input }) })),
  update: p.meta(c.updateWorkflow.meta).input(c.updateWorkflow.input).output(c.updateWorkflow.output)
    .mutation(async ({ ctx, input }) => ({ data: await updateWorkflow({ ctx, input }) })),
  delete: p.meta(c.deleteWorkflow.meta).input(c.deleteWorkflow.input).output(c.deleteWorkflow.output)
    .mutation(async ({ ctx, input }) => ({ data: await deleteWorkflow({ ctx, input }) })),
  deploy: p.meta(c.deployWorkflow.meta).input(c.deployWorkflow.input).output(c.deployWorkflow.output)
    .mutation(async ({ ctx, input }) => ({ data: await deployWorkflow({ ctx, input }) })),
  undeploy: p.meta(c.undeployWorkflow.meta).input(c.undeployWorkflow.input).output(c.undeployWorkflow.output)
    .mutation(async ({ ctx, input }) => ({ data: await undeployWorkflow({ ctx, input }) })),
  status: p.meta(c.getWorkflowStatus.meta).input(c.getWorkflowStatus.input).output(c.getWorkflowStatus.output)
    .query(({ ctx, input }) => getWorkflowStatus({ ctx, input })),
  // REST callers reach executeWorkflowRoute below instead (raw body); this serves tRPC callers.
  execute: p.meta(c.executeWorkflow.meta).input(c.executeWorkflow.input).output(c.executeWorkflow.output)
    .mutation(async ({ ctx, input }) => {
      const { id, ...body } = input;
      const request = executionRequestFromBody(body);
      if (wantsAsync(ctx.headers, request.async)) {
        const baseUrl = publicBaseUrl(ctx.config.publicUrl, ctx.headers);
        ctx.response.status = 202;
        return queueExecution({ ctx, userId: ctx.actor.userId, input: { id, input: request.input }, baseUrl });
      }
      const answer = await executeWorkflow({ ctx, userId: ctx.actor.userId, input: { id, input: request.input } });
      for (const [name, value] of Object.entries(answer.headers)) ctx.resHeaders.set(name, value);
      ctx.response.status = answer.status;
      return answer.body;
    }),
});

const NULL_BODY_STATUS = new Set([204, 205, 304]);

/**
 * `POST /api/workflows/:id/execute`, mounted before the REST catch-all: the body is read raw so that
 * an input with a top-level `id` key reaches the workflow intact (the OpenAPI adapter would merge the
 * path parameter over it). Errors propagate to the app's error handler and its envelope.
 */
export async function executeWorkflowRoute(c: Context<{ Variables: { ctx: RequestContext } }>, id: string): Promise<Response> {
  const ctx = await authenticateRequest(c.get("ctx"));
  const body = await readJsonBody(c.req.raw);
  if (!body.ok) throw body.error;
  const request = executionRequestFromBody(body.value);
  if (wantsAsync(c.req.raw.headers, request.async)) {
    const baseUrl = publicBaseUrl(ctx.config.publicUrl, c.req.raw.headers, c.req.url);
    const queued = await queueExecution({ ctx, userId: ctx.actor.userId, input: { id, input: request.input }, baseUrl });
    return Response.json(queued, { status: 202 });
  }
  const answer = await executeWorkflow({ ctx, userId: ctx.actor.userId, input: { id, input: request.input } });
  return toResponse(answer);
}

function toResponse(answer: ExecutionAnswer): Response {
  const headers = new Headers(answer.headers);
  if (NULL_BODY_STATUS.has(answer.status)) return new Response(null, { status: answer.status, headers });
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}
