import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { jobStatusResponseSchema } from "./schemas.ts";

export const getJob = defineProcedure({
  meta: {
    openapi: {
      method: "GET",
      path: "/api/jobs/{jobId}",
      tags: ["jobs"],
      summary: "Status and result of an asynchronous execution (its owner, or read permission on its workspace)",
    },
  },
  input: z.object({ jobId: z.string().min(1).max(128) }),
  output: jobStatusResponseSchema,
});
