// Writes openapi/openapi.json and openapi/schema.d.ts from the contract (`npm run openapi`).
import { mkdirSync, writeFileSync } from "node:fs";
import { OPENAPI_JSON_PATH, OPENAPI_TYPES_PATH, renderOpenApiArtifacts } from "./openapi-artifacts.ts";

const { json, types } = await renderOpenApiArtifacts();
mkdirSync("openapi", { recursive: true });
writeFileSync(OPENAPI_JSON_PATH, json);
writeFileSync(OPENAPI_TYPES_PATH, types);
process.stdout.write(`wrote ${OPENAPI_JSON_PATH} and ${OPENAPI_TYPES_PATH}\n`);
