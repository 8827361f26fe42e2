import { usage as c } from "../../contract/index.ts";
import { getUsageLimits } from "../services/usage/get-usage-limits.ts";
import { apiKeyProcedure as p, router } from "../trpc.ts";

export const usageRouter = router({
  // Deliberately not API-rate-limited: reading one's limits must stay possible while limited.
  getUsageLimits: p.meta(c.getUsageLimits.meta).input(c.getUsageLimits.input).output(c.getUsageLimits.output)
    .query(({ ctx }) => getUsageLimits({ ctx })),
});
