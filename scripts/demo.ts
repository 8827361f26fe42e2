// `npm run demo`: seeds a demo workspace and workflows into the configured database and prints an
// API key and ready-to-run curl lines for a service started with `npm start`.
import process from "node:process";
import { buildDeps } from "../server/start.ts";
import { seedDemo } from "./demo-seed.ts";

const { deps } = await buildDeps({ env: { LOG_LEVEL: "warn", ...process.env } });
const seed = await seedDemo(deps);
deps.database.close();

const host = deps.config.host === "0.0.0.0" ? "127.0.0.1" : deps.config.host;
const base = deps.config.publicUrl ?? `http://${host}:${deps.config.port}`;
process.stdout.write(
  [
    "",
    "Demo workspace ready.",
    `  Workspace:  ${seed.workspaceId}`,
    `  API key:    ${seed.apiKey}   (shown once)`,
    `  Workflows:  ${seed.workflowId} "Greeting", ${seed.apiWorkflowId} "Fetch a post" (both deployed)`,
    "",
    "With the service running (npm start), run the greeting:",
    `  curl -s -X POST ${base}/api/workflows/${seed.workflowId}/execute -H "x-api-key: ${seed.apiKey}" -H "content-type: application/json" -d '{"name":"Ada"}'`,
    "Call a public API through the HTTP request block:",
    `  curl -s -X POST ${base}/api/workflows/${seed.apiWorkflowId}/execute -H "x-api-key: ${seed.apiKey}" -H "content-type: application/json" -d '{"postId":1}'`,
    "Then read the runs back:",
    `  curl -s "${base}/api/v1/logs?workspaceId=${seed.workspaceId}&includeFinalOutput=true" -H "x-api-key: ${seed.apiKey}"`,
    "",
  ].join("\n"),
);
