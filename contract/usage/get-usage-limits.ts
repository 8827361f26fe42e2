import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { limitedBucketSchema, usageSchema } from "./schemas.ts";

export const getUsageLimits = defineProcedure({
  meta: {
    auth: "apiKey",
    openapi: {
      method: "GET",
      path: "/api/users/me/usage-limits",
      tags: ["usage"],
      summary: "The caller's execution rate-limit buckets and current-period cost",
      description:
        "Reports the sync and async execution buckets and the usage of the current billing period " +
        "(calendar month, UTC). Reading it consumes no token from any bucket.",
    },
  },
  input: z.void(),
  output: z.object({
    success: z.boolean(),
    rateLimit: z.object({
      sync: limitedBucketSchema,
      async: limitedBucketSchema,
      authType: z.string().describe('How the caller authenticated: "api_key"'),
    }),
    usage: usageSchema,
  }),
});
