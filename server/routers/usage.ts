import { router } from "../trpc.ts";

export const usageRouter = router({});
