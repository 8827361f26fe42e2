import { z } from "zod";
import { offsetPagination, paginationOutput } from "../common.ts";
import { defineProcedure } from "../define.ts";
import { userSchema } from "./schemas.ts";

export const listUsers = defineProcedure({
  meta: {
    auth: "admin",
    openapi: { method: "GET", path: "/api/v1/admin/users", tags: ["admin"], summary: "List users, oldest first" },
  },
  input: z.object(offsetPagination),
  output: z.object({ data: z.array(userSchema), pagination: paginationOutput }),
});
