import type { UserContext } from "../../context.ts";
import { getLimits } from "../../limits/execution-limits.ts";
import type { BucketState } from "../../limits/token-bucket.ts";

const withStatus = (bucket: BucketState) => ({ ...bucket, isLimited: bucket.remaining < 1 });

/** The caller's execution buckets and period usage (spec 4.2). Spends no token of any bucket. */
export async function getUsageLimits({ ctx }: { ctx: UserContext }) {
  const limits = await getLimits(ctx, ctx.actor.userId);
  const { sync, async } = limits.workflowExecutionRateLimit;
  return {
    success: true,
    rateLimit: { sync: withStatus(sync), async: withStatus(async), authType: ctx.actor.authType },
    usage: limits.usage,
  };
}
