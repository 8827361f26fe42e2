import { z } from "zod";
import { defineProcedure } from "../define.ts";

export const deleteWorkflow = defineProcedure({
  meta: {
    openapi: {
      method: "DELETE",
      path: "/api/workflows/{id}",
      tags: ["workflows"],
      summary: "Delete a workflow and its deployments; its execution logs are kept (write permission)",
    },
  },
  input: z.object({ id: z.string().min(1) }),
  output: z.object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) }),
});
