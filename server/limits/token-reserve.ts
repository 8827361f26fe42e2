import type { AppDeps } from "../context.ts";
import type { BucketLimit } from "./plans.ts";
import { type ConsumeResult, consumeResult, type TakeResult, takeTokens } from "./token-bucket.ts";

/** Tokens a process may hold aside per bucket, and for how long before it puts them back. */
export const RESERVE_MAX = 16;
export const RESERVE_TTL_MS = 1_000;

type Reserve = {
  /** Tokens taken from the database and not handed out yet. */
  left: number;
  /** How many the next take asks for: doubles while reserves run dry in time, halves otherwise. */
  want: number;
  takenAt: number;
  /** The database's answer to the last take, for the headers of requests served from the reserve. */
  last: TakeResult;
};

type BucketDeps = Pick<AppDeps, "db" | "clock">;

/**
 * Per-process token reserves in front of the shared database buckets. A busy caller's requests are
 * served from a few tokens taken in one write instead of one write each; an idle caller takes one
 * token at a time, exactly as without a reserve. The bucket never hands out more than it holds:
 * reserved tokens have left the database. Unused tokens go back with the next take once they are
 * older than RESERVE_TTL_MS. See docs/rate-limits.md.
 */
export class TokenReserves {
  readonly #reserves = new Map<string, Reserve>();

  /** Spends one token of bucket `key`, from the reserve when it has one. */
  async consume(deps: BucketDeps, key: string, limit: BucketLimit): Promise<ConsumeResult> {
    const now = Math.floor(deps.clock.now());
    let reserve = this.#reserves.get(key);
    if (reserve && reserve.left > 0 && now - reserve.takenAt < RESERVE_TTL_MS) {
      reserve.left--;
      return consumeResult(limit, reserve.last, reserve.left, now);
    }
    const giveBack = reserve ? reserve.left : 0;
    // A reserve used up within its lifetime asks for more next time; an idle caller's, for less.
    const ranDry = reserve !== undefined && now - reserve.takenAt < RESERVE_TTL_MS;
    const want = !reserve ? 1 : ranDry ? Math.min(cap(limit), reserve.want * 2) : Math.max(1, reserve.want >> 1);
    if (reserve) reserve.left = 0; // handed to the take below, so a concurrent request cannot spend it
    const taken = await takeTokens(deps, key, limit, want, giveBack);
    reserve = this.#reserves.get(key) ?? { left: 0, want, takenAt: now, last: taken };
    reserve.want = want;
    reserve.takenAt = now;
    reserve.last = taken;
    if (taken.taken > 1) reserve.left += taken.taken - 1;
    this.#reserves.set(key, reserve);
    return consumeResult(limit, taken, reserve.left, now);
  }

  /** Tokens of bucket `key` this process holds aside: still the caller's, so peeks count them. */
  reserved(key: string): number {
    return this.#reserves.get(key)?.left ?? 0;
  }
}

/** Never hold more than an eighth of a bucket aside, so other processes are not starved. */
function cap(limit: BucketLimit): number {
  return Math.max(1, Math.min(RESERVE_MAX, Math.floor(limit.maxBurst / 8)));
}
