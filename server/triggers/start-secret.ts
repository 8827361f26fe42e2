import { invalidParameter } from "../errors.ts";
import { secretsEqual } from "../security/constant-time.ts";
import { isSealedSecret } from "../security/encryption.ts";
import type { SecretBox } from "../security/secret-box.ts";
import { MIN_WEBHOOK_SECRET_LENGTH, SECRET_MASK } from "./start-trigger.ts";

type Block = { type?: unknown; params?: Record<string, unknown> | null };
type StateLike = { blocks: Record<string, Block> };

/**
 * The state to store for a create or update: the start block's webhook `secret` sealed, so the plain
 * secret is in no stored state, deployment snapshot, execution detail or trace. `"********"` keeps
 * the secret stored before (`storedStateJson`), as does sending the same plain secret again (the
 * state is then unchanged and needs no redeploy). Values that would not validate are left for
 * validation to report.
 */
export function sealStartSecret<T extends StateLike>(secrets: SecretBox, state: T, storedStateJson: string | null): T {
  const start = findStart(state);
  if (!start) return state;
  const [id, block] = start;
  const secret = block.params?.secret;
  if (typeof secret !== "string") return state;
  const stored = storedSecret(storedStateJson);
  let sealed: string;
  if (secret === SECRET_MASK) {
    if (stored === null) {
      throw invalidParameter(
        `state.blocks.${id}.params.secret`,
        `"${SECRET_MASK}" keeps the stored secret, but the workflow has none: send the secret itself`,
      );
    }
    sealed = stored;
  } else if (secret.length < MIN_WEBHOOK_SECRET_LENGTH) {
    return state;
  } else if (stored !== null && (secret === stored || opensTo(secrets, stored, secret))) {
    sealed = stored;
  } else {
    sealed = secrets.encrypt(secret);
  }
  return { ...state, blocks: { ...state.blocks, [id]: { ...block, params: { ...block.params, secret: sealed } } } };
}

/** A copy of the state with the start block's secret replaced by `"********"` (answers never carry it). */
export function maskStartSecret<T extends StateLike>(state: T): T {
  const start = findStart(state);
  if (!start || start[1].params?.secret === undefined) return state;
  const [id, block] = start;
  return { ...state, blocks: { ...state.blocks, [id]: { ...block, params: { ...block.params, secret: SECRET_MASK } } } };
}

function findStart(state: StateLike): [string, Block] | null {
  for (const [id, block] of Object.entries(state.blocks ?? {})) {
    if (block && block.type === "start") return [id, block];
  }
  return null;
}

function storedSecret(stateJson: string | null): string | null {
  if (stateJson === null) return null;
  const start = findStart(JSON.parse(stateJson) as StateLike);
  const secret = start?.[1].params?.secret;
  return isSealedSecret(secret) ? secret : null;
}

function opensTo(secrets: SecretBox, sealed: string, plain: string): boolean {
  try {
    return secretsEqual(secrets.decrypt(sealed), plain);
  } catch {
    return false;
  }
}
