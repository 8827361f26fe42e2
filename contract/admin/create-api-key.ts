import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { createdApiKeySchema } from "./schemas.ts";

export const createApiKey = defineProcedure({
  meta: {
    auth: "admin",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/api/v1/admin/users/{userId}/api-keys",
      tags: ["admin"],
      summary: "Issue an API key that acts as the user (the key is shown once)",
    },
  },
  input: z.object({ userId: z.string().min(1), name: z.string().trim().min(1).max(200) }),
  output: z.object({ data: createdApiKeySchema }),
});
