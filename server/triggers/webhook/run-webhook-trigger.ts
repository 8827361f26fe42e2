import type { AppDeps } from "../../context.ts";
import { notFound } from "../../errors.ts";
import { assertWithinUsageLimit, takeExecutionToken } from "../../limits/execution-limits.ts";
import { runExecution } from "../../services/executions/run-execution.ts";
import { safeResponseHeaders } from "../../services/workflows/safe-response-headers.ts";
import { findTriggerTarget } from "../find-trigger-target.ts";
import { respondedByBlock } from "../responded-by-block.ts";
import { isWebhookPath } from "../start-trigger.ts";
import { verifyWebhook } from "./verify-webhook.ts";
import { webhookInput } from "./webhook-input.ts";

export type WebhookCall = { path: string; method: string; headers: Headers; url: URL; rawBody: Uint8Array };

/** Status, headers and JSON body to answer a webhook call with. */
export type WebhookAnswer = { status: number; headers: Record<string, string>; body: unknown };

/**
 * Runs the workflow deployed with this webhook path, synchronously. Checks in this order: the path is
 * registered to a live workflow (404), the secret or signature (401), the workspace owner's usage
 * limit (402), one token of the owner's sync bucket (429). A refused call writes no log.
 */
export async function runWebhookTrigger({ ctx, input }: { ctx: AppDeps; input: WebhookCall }): Promise<WebhookAnswer> {
  const target = isWebhookPath(input.path) ? await findTriggerTarget(ctx, "webhook", input.path) : null;
  if (!target) throw notFound(`Webhook "${input.path}"`);
  verifyWebhook(ctx.secrets, target.config, input.headers, input.rawBody);
  const runInput = webhookInput(input.method, input.headers, input.url, input.rawBody);
  await assertWithinUsageLimit(ctx, target.ownerId);
  await takeExecutionToken(ctx, target.ownerId, "sync");
  const run = await runExecution({
    ctx,
    workflow: { id: target.workflowId, workspaceId: target.workspaceId },
    deployment: { id: target.deploymentId, state: target.state },
    input: runInput,
    trigger: "webhook",
    userId: target.ownerId,
  });
  if (!run.success) {
    return { status: 500, headers: {}, body: { success: false, executionId: run.executionId, error: run.error ?? "The workflow failed" } };
  }
  if (respondedByBlock(run.traceSpans)) {
    const status = Number.isInteger(run.status) && run.status >= 200 && run.status <= 599 ? run.status : 200;
    return { status, headers: safeResponseHeaders(run.headers), body: run.output ?? null };
  }
  return { status: 200, headers: {}, body: { success: true, executionId: run.executionId, output: run.output ?? null } };
}
