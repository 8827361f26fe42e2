import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { deploymentSchema } from "./schemas.ts";

export const deployWorkflow = defineProcedure({
  meta: {
    openapi: {
      method: "POST",
      path: "/api/workflows/{id}/deploy",
      tags: ["workflows"],
      summary: "Snapshot the current state as the new live version (write permission)",
    },
  },
  input: z.object({ id: z.string().min(1) }),
  output: z.object({ data: deploymentSchema }),
});
