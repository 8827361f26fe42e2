import { router } from "../trpc.ts";

export const logsRouter = router({});
