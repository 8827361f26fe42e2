import { parseSchedule } from "./schedule/index.ts";

/** What a webhook path may look like: letters, digits, `_ - /`, not starting with a separator. */
export const WEBHOOK_PATH = /^[A-Za-z0-9][A-Za-z0-9_\-/]{0,199}$/;
/** What a chat identifier may look like: lowercase, URL-safe, at most 64 characters. */
export const CHAT_IDENTIFIER = /^[a-z0-9][a-z0-9-]{0,63}$/;
export const MIN_WEBHOOK_SECRET_LENGTH = 16;
/** What answers show instead of a stored webhook secret, and what an update sends to keep it. */
export const SECRET_MASK = "********";

export type TriggerKind = "api" | "webhook" | "schedule" | "chat";

/** How a deployed workflow is started, read from its start block's params. */
export type StartTrigger =
  | { kind: "api" }
  | { kind: "webhook"; path: string; secret?: string; signature?: "hmac-sha256" }
  | { kind: "schedule"; cron: string; timezone: string }
  | { kind: "chat"; identifier: string };

type StateLike = { blocks: Record<string, { type?: unknown; params?: Record<string, unknown> | null } | null | undefined> };

/** The start block's params (the first block of type start), or null. */
export function startParams(state: StateLike): Record<string, unknown> | null {
  for (const block of Object.values(state.blocks ?? {})) {
    if (block && block.type === "start") return block.params ?? {};
  }
  return null;
}

/**
 * The trigger of a state that passed validation (start block checks: docs/triggers.md). Values
 * that would not validate fall back to `api`, so a caller never registers a malformed trigger.
 */
export function startTrigger(state: StateLike): StartTrigger {
  const params = startParams(state) ?? {};
  switch (params.trigger) {
    case "webhook": {
      const path = params.path;
      if (typeof path !== "string" || !isWebhookPath(path)) return { kind: "api" };
      const secret = typeof params.secret === "string" ? params.secret : undefined;
      const signature = params.signature === "hmac-sha256" && secret !== undefined ? "hmac-sha256" : undefined;
      return { kind: "webhook", path, ...(secret === undefined ? {} : { secret }), ...(signature ? { signature } : {}) };
    }
    case "chat":
      return typeof params.identifier === "string" && CHAT_IDENTIFIER.test(params.identifier)
        ? { kind: "chat", identifier: params.identifier }
        : { kind: "api" };
    case "schedule": {
      const schedule = parseSchedule({ cron: params.cron, timezone: params.timezone });
      return "error" in schedule ? { kind: "api" } : { kind: "schedule", ...schedule };
    }
    default:
      return { kind: "api" };
  }
}

export function isWebhookPath(path: string): boolean {
  return WEBHOOK_PATH.test(path) && !path.includes("..");
}
