export const PLANS = ["free", "pro", "team", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

export type BucketLimit = { requestsPerMinute: number; maxBurst: number };
export type PlanLimits = {
  /** Calls to the logs API (spec 8.1 plan table). */
  api: BucketLimit;
  /** Workflow executions run synchronously. */
  sync: BucketLimit;
  /** Workflow executions queued to run later. */
  async: BucketLimit;
  /** Usage limit per billing period (calendar month, UTC), in USD. */
  usageLimitUsd: number;
};

const bucket = (requestsPerMinute: number, maxBurst = requestsPerMinute * 2): BucketLimit => ({
  requestsPerMinute,
  maxBurst,
});

/** Defaults per plan; a license may override any of them. */
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { api: bucket(10, 20), sync: bucket(50), async: bucket(200), usageLimitUsd: 10 },
  pro: { api: bucket(30, 60), sync: bucket(150), async: bucket(1000), usageLimitUsd: 100 },
  team: { api: bucket(60, 120), sync: bucket(300), async: bucket(2500), usageLimitUsd: 500 },
  enterprise: { api: bucket(120, 240), sync: bucket(600), async: bucket(5000), usageLimitUsd: 5000 },
};
