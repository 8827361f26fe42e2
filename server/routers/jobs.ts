import { jobs as c } from "../../contract/index.ts";
import { getJobStatus } from "../services/jobs/get-job-status.ts";
import { apiKeyProcedure as p, router } from "../trpc.ts";

export const jobsRouter = router({
  get: p.meta(c.getJob.meta).input(c.getJob.input).output(c.getJob.output)
    .query(({ ctx, input }) => getJobStatus({ ctx, input })),
});
