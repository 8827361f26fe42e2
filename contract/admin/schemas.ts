import { z } from "zod";
import { isoTimestamp } from "../common.ts";

export const userSchema = z
  .object({ id: z.string(), email: z.string(), name: z.string(), createdAt: isoTimestamp })
  .meta({ id: "User" });

export const workspaceSchema = z
  .object({ id: z.string(), name: z.string(), ownerId: z.string(), createdAt: isoTimestamp })
  .meta({ id: "Workspace" });

export const createdApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().describe("The secret key. Shown only in this response; store it now."),
    createdAt: isoTimestamp,
  })
  .meta({ id: "CreatedApiKey" });
