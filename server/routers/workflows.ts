import { router } from "../trpc.ts";

export const workflowsRouter = router({});
