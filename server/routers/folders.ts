import { folders as c } from "../../contract/index.ts";
import { createFolder } from "../services/folders/create-folder.ts";
import { listFolders } from "../services/folders/list-folders.ts";
import { apiKeyProcedure as p, router } from "../trpc.ts";

export const foldersRouter = router({
  create: p.meta(c.createFolder.meta).input(c.createFolder.input).output(c.createFolder.output)
    .mutation(async ({ ctx, input }) => ({ data: await createFolder({ ctx, input }) })),
  list: p.meta(c.listFolders.meta).input(c.listFolders.input).output(c.listFolders.output)
    .query(async ({ ctx, input }) => ({ data: await listFolders({ ctx, input }) })),
});
