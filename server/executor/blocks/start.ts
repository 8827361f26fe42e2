import { validateSchedule } from "../../triggers/schedule/index.ts";
import {
  CHAT_IDENTIFIER,
  isWebhookPath,
  MIN_WEBHOOK_SECRET_LENGTH,
  SECRET_MASK,
} from "../../triggers/start-trigger.ts";
import type { BlockHandler } from "./block-handler.ts";

const TRIGGERS = ["api", "webhook", "schedule", "chat"];

/**
 * The entry point: its output is the trigger input, read by `<start.field>`. Its params say how a
 * deployed workflow is started (docs/triggers.md).
 */
export const startBlock: BlockHandler = {
  validate(params) {
    const trigger = params.trigger ?? "api";
    if (typeof trigger !== "string" || !TRIGGERS.includes(trigger)) {
      return [`trigger must be one of ${TRIGGERS.join(", ")} (got ${JSON.stringify(trigger)})`];
    }
    if (trigger === "webhook") return validateWebhook(params);
    if (trigger === "chat") return validateChat(params);
    if (trigger === "schedule") return validateSchedule({ cron: params.cron, timezone: params.timezone });
    return [];
  },
  run: (params, ctx) => ({
    output: ctx.input,
    error: null,
    // The stored secret is sealed already; the trace shows neither it nor its ciphertext.
    traceInput: params.secret === undefined ? params : { ...params, secret: SECRET_MASK },
  }),
};

function validateWebhook(params: Record<string, unknown>): string[] {
  const issues: string[] = [];
  const { path, secret, signature } = params;
  if (typeof path !== "string" || !isWebhookPath(path)) {
    issues.push(
      `path must be 1 to 200 characters of letters, digits, "_", "-" and "/", starting with a letter or digit, without ".." (got ${JSON.stringify(path)})`,
    );
  }
  if (secret !== undefined && (typeof secret !== "string" || secret.length < MIN_WEBHOOK_SECRET_LENGTH)) {
    issues.push(`secret must be a string of at least ${MIN_WEBHOOK_SECRET_LENGTH} characters`);
  }
  if (signature !== undefined && signature !== "hmac-sha256") {
    issues.push(`signature must be "hmac-sha256" (got ${JSON.stringify(signature)})`);
  } else if (signature !== undefined && secret === undefined) {
    issues.push('signature "hmac-sha256" needs a secret to sign with');
  }
  return issues;
}

function validateChat(params: Record<string, unknown>): string[] {
  const { identifier } = params;
  if (typeof identifier === "string" && CHAT_IDENTIFIER.test(identifier)) return [];
  return [
    `identifier must be 1 to 64 characters of lowercase letters, digits and "-", starting with a letter or digit (got ${JSON.stringify(identifier)})`,
  ];
}
