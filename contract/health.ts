import { z } from "zod";
import { defineProcedure } from "./define.ts";

export const getHealth = defineProcedure({
  meta: {
    auth: "none",
    openapi: { method: "GET", path: "/api/health", tags: ["health"], summary: "Liveness: 200 when the database answers", protect: false },
  },
  input: z.void(),
  output: z.object({ status: z.literal("ok") }),
});
