import { router } from "../trpc.ts";

export const foldersRouter = router({});
