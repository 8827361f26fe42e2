import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { userSchema } from "./schemas.ts";

export const createUser = defineProcedure({
  meta: {
    auth: "admin",
    successStatus: 201,
    openapi: { method: "POST", path: "/api/v1/admin/users", tags: ["admin"], summary: "Create a user" },
  },
  input: z.object({ email: z.email().max(320), name: z.string().trim().min(1).max(200) }),
  output: z.object({ data: userSchema }),
});
