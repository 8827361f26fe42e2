import type { JobStatusResponse } from "../../../contract/jobs/schemas.ts";
import type { UserContext } from "../../context.ts";
import { notFound } from "../../errors.ts";
import { getJob } from "../../jobs/get-job.ts";
import type { Job } from "../../jobs/job.ts";
import { getWorkspacePermission } from "../auth/require-workspace-permission.ts";
import type { ExecutionJobPayload, ExecutionJobResult } from "../executions/execution-job.ts";
import { iso } from "../iso.ts";

/**
 * A queued execution's status for its owner or anyone who may read its workspace; 404 for anyone
 * else, so job ids of other workspaces cannot be probed. A run that ended with an error is `failed`
 * like a job no worker could finish.
 */
export async function getJobStatus({ ctx, input }: { ctx: UserContext; input: { jobId: string } }): Promise<JobStatusResponse> {
  const job = await getJob(ctx.database, input.jobId);
  if (!job || !(await mayRead(ctx, job))) throw notFound("Job");
  const payload = (job.payload ?? {}) as Partial<ExecutionJobPayload>;
  const result = job.result as ExecutionJobResult | null;
  const runFailed = job.status === "completed" && result !== null && result.success === false;
  const status = runFailed ? "failed" : job.status;
  const answer: JobStatusResponse = {
    success: status !== "failed",
    jobId: job.id,
    status,
    executionId: payload.executionId ?? null,
    metadata: {
      createdAt: iso(job.createdAt),
      startedAt: job.startedAt === null ? null : iso(job.startedAt),
      completedAt: job.completedAt === null ? null : iso(job.completedAt),
      duration: job.startedAt !== null && job.completedAt !== null ? Math.max(0, job.completedAt - job.startedAt) : null,
      attempts: job.attempts,
    },
  };
  if (status === "completed" && result) answer.output = result.output ?? null;
  if (status === "failed") answer.error = (runFailed ? result?.error : job.lastError) ?? "The execution failed";
  return answer;
}

async function mayRead(ctx: UserContext, job: Job): Promise<boolean> {
  if (job.userId === ctx.actor.userId) return true;
  if (!job.workspaceId) return false;
  return (await getWorkspacePermission(ctx, ctx.actor.userId, job.workspaceId)) !== null;
}
