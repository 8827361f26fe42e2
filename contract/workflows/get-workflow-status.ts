import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { deploymentStatusSchema } from "./schemas.ts";

export const getWorkflowStatus = defineProcedure({
  meta: {
    openapi: {
      method: "GET",
      path: "/api/workflows/{id}/status",
      tags: ["workflows"],
      summary: "Deployment status: deployed or not, when, and whether the state changed since (read permission)",
    },
  },
  input: z.object({ id: z.string().min(1) }),
  output: deploymentStatusSchema,
});
