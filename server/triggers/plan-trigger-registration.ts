import { and, eq, ne } from "drizzle-orm";
import type { AppDeps } from "../context.ts";
import { workflowTriggers } from "../db/schema/index.ts";
import { AppError } from "../errors.ts";
import { newId } from "../ids.ts";
import { isSealedSecret } from "../security/encryption.ts";
import { type StartTrigger, startTrigger } from "./start-trigger.ts";

/** A `workflow_triggers` row to write with a deployment. */
export type TriggerRow = typeof workflowTriggers.$inferInsert & { kind: "webhook" | "chat" | "schedule" };

/**
 * The registry row a deployment of this state needs (null for an `api` start block). A webhook path
 * or chat identifier another workflow holds is refused with 409 here; the unique (kind, key) index
 * catches a deploy racing for the same key (triggerConflictFrom).
 */
export async function planTriggerRegistration(
  ctx: Pick<AppDeps, "db" | "secrets">,
  workflow: { id: string; workspaceId: string; state: string },
  deploymentId: string,
  now: number,
): Promise<TriggerRow | null> {
  const trigger = startTrigger(JSON.parse(workflow.state));
  if (trigger.kind === "api") return null;
  const key = trigger.kind === "webhook" ? trigger.path : trigger.kind === "chat" ? trigger.identifier : workflow.id;
  if (trigger.kind !== "schedule") {
    const holder = await ctx.db
      .select({ workflowId: workflowTriggers.workflowId, workspaceId: workflowTriggers.workspaceId })
      .from(workflowTriggers)
      .where(and(eq(workflowTriggers.kind, trigger.kind), eq(workflowTriggers.key, key), ne(workflowTriggers.workflowId, workflow.id)))
      .get();
    // Another tenant's workflow id is not shown; the caller's own workspace's is.
    if (holder) throw keyTaken(trigger.kind, key, holder.workspaceId === workflow.workspaceId ? holder.workflowId : undefined);
  }
  return {
    id: newId("trg"),
    kind: trigger.kind,
    key,
    workflowId: workflow.id,
    workspaceId: workflow.workspaceId,
    deploymentId,
    config: JSON.stringify(configOf(ctx, trigger)),
    createdAt: now,
  };
}

function configOf(ctx: Pick<AppDeps, "secrets">, trigger: Exclude<StartTrigger, { kind: "api" }>): Record<string, unknown> {
  switch (trigger.kind) {
    case "schedule":
      return { cron: trigger.cron, timezone: trigger.timezone };
    case "chat":
      return {};
    case "webhook": {
      if (trigger.secret === undefined) return {};
      // States saved through the API hold the secret sealed already; anything else is sealed now.
      const secret = isSealedSecret(trigger.secret) ? trigger.secret : ctx.secrets.encrypt(trigger.secret);
      return { secret, ...(trigger.signature ? { signature: trigger.signature } : {}) };
    }
  }
}

/** 409 for a webhook path or chat identifier already registered by another workflow. */
export function keyTaken(kind: "webhook" | "chat", key: string, workflowId?: string): AppError {
  const what = kind === "webhook" ? `Webhook path "${key}"` : `Chat identifier "${key}"`;
  const by = workflowId ? `workflow ${workflowId}` : "another workflow";
  return new AppError(409, "CONFLICT", `${what} is already used by ${by}`, {
    kind,
    key,
    ...(workflowId ? { workflowId } : {}),
  });
}

/** The 409 for a batch refused by the unique (kind, key) index, or null for any other error. */
export function triggerConflictFrom(error: unknown, row: TriggerRow | null): AppError | null {
  if (!row || row.kind === "schedule") return null;
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (/UNIQUE constraint failed: workflow_triggers\.kind/.test(e.message)) return keyTaken(row.kind, row.key);
  }
  return null;
}
