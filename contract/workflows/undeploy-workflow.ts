import { z } from "zod";
import { defineProcedure } from "../define.ts";

export const undeployWorkflow = defineProcedure({
  meta: {
    openapi: {
      method: "POST",
      path: "/api/workflows/{id}/undeploy",
      tags: ["workflows"],
      summary: "Take the workflow offline: no live version, its webhook, chat or schedule trigger removed (write permission)",
      description:
        "Afterwards execute answers 400 WORKFLOW_NOT_DEPLOYED and the webhook path or chat identifier 404; the " +
        "deployments stay and a later deploy makes the workflow live again. Undeploying a workflow that is not " +
        "deployed succeeds.",
    },
  },
  input: z.object({ id: z.string().min(1) }),
  output: z.object({ data: z.object({ id: z.string(), isDeployed: z.literal(false) }) }),
});
