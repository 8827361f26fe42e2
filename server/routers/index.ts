import { router } from "../trpc.ts";
import { adminRouter } from "./admin.ts";
import { foldersRouter } from "./folders.ts";
import { healthRouter } from "./health.ts";
import { jobsRouter } from "./jobs.ts";
import { logsRouter } from "./logs.ts";
import { usageRouter } from "./usage.ts";
import { workflowsRouter } from "./workflows.ts";

// Order matters for REST matching: static paths are defined before `{id}` paths inside each router.
export const appRouter = router({
  health: healthRouter,
  admin: adminRouter,
  folders: foldersRouter,
  workflows: workflowsRouter,
  logs: logsRouter,
  usage: usageRouter,
  jobs: jobsRouter,
});

/** The router type for typed tRPC clients (`createTRPCClient<AppRouter>`). */
export type AppRouter = typeof appRouter;
