import { sql } from "drizzle-orm";
import { health as c } from "../../contract/index.ts";
import { AppError } from "../errors.ts";
import { publicProcedure, router } from "../trpc.ts";

export const healthRouter = router({
  get: publicProcedure.meta(c.getHealth.meta).input(c.getHealth.input).output(c.getHealth.output)
    .query(async ({ ctx }) => {
      try {
        await ctx.db.run(sql`select 1`);
      } catch {
        throw new AppError(503, "UNAVAILABLE", "The database does not answer");
      }
      return { status: "ok" as const };
    }),
});
