import { z } from "zod";
import { defineProcedure } from "../define.ts";
import { logDetailSchema } from "./schemas.ts";

export const getLog = defineProcedure({
  meta: {
    openapi: {
      method: "GET",
      path: "/api/v1/logs/{id}",
      tags: ["logs"],
      summary: "One completed execution's log, with trace spans, final output and full cost",
    },
  },
  input: z.object({ id: z.string().min(1).describe("Log id") }),
  output: z.object({ data: logDetailSchema }),
});

export type GetLogOutput = z.output<typeof getLog.output>;
