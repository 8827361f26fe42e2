import { z } from "zod";
import { isoTimestamp } from "../common.ts";

/** A token bucket as reported to callers (spec 2.1, without `isLimited`). */
export const bucketSchema = z
  .object({
    requestsPerMinute: z.number().describe("Sustained refill rate, tokens per minute"),
    maxBurst: z.number().describe("Most tokens that can accumulate while idle"),
    remaining: z.number().int().describe("Whole tokens available now; can exceed requestsPerMinute, up to maxBurst"),
    resetAt: isoTimestamp.describe("When the next whole token is added (docs/rate-limits.md)"),
  })
  .meta({ id: "RateLimitBucket" });

/** The bucket of the usage-limits response (spec 2.1 with `isLimited`). */
export const limitedBucketSchema = bucketSchema
  .extend({ isLimited: z.boolean().describe("true when no whole token is left (remaining < 1)") })
  .meta({ id: "RateLimitBucketWithStatus" });

export const usageSchema = z
  .object({
    currentPeriodCost: z.number().describe("USD spent in the current billing period (calendar month, UTC)"),
    limit: z.number().describe("USD usage limit per billing period, from the installation's license"),
    plan: z.string().describe("free, pro, team or enterprise"),
    isExceeded: z.boolean().describe("true when currentPeriodCost >= limit: executions are refused with 402"),
  })
  .meta({ id: "Usage" });

/** The `limits` object of every logs-API response body (spec 2.2). */
export const limitsSchema = z
  .object({
    workflowExecutionRateLimit: z.object({ sync: bucketSchema, async: bucketSchema }),
    usage: usageSchema,
  })
  .meta({ id: "Limits" });

const tokenCountsSchema = z.object({
  prompt: z.number().int(),
  completion: z.number().int(),
  total: z.number().int(),
});

/** The cost of one execution (spec 2.3): base charge plus model cost, in USD. */
export const costSchema = z
  .object({
    total: z.number().describe("USD: base execution charge + model cost"),
    tokens: tokenCountsSchema,
    models: z.record(
      z.string(),
      z.object({
        input: z.number().describe("USD for prompt tokens"),
        output: z.number().describe("USD for completion tokens"),
        total: z.number(),
        tokens: tokenCountsSchema,
      }),
    ),
  })
  .meta({ id: "Cost" });

export type BucketOutput = z.infer<typeof bucketSchema>;
export type LimitsOutput = z.infer<typeof limitsSchema>;
export type CostOutput = z.infer<typeof costSchema>;
