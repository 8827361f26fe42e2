import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { workflowSchema } from "./schemas.ts";

export const getWorkflow = defineProcedure({
  meta: {
    openapi: {
      method: "GET",
      path: "/api/workflows/{id}",
      tags: ["workflows"],
      summary: "Get a workflow with its current (draft) state (read permission)",
    },
  },
  input: z.object({ id: z.string().min(1) }),
  output: z.object({ data: workflowSchema }),
});
