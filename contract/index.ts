export * as admin from "./admin/index.ts";
export * from "./common.ts";
export * from "./define.ts";
export * as folders from "./folders/index.ts";
export * as health from "./health.ts";
export * as jobs from "./jobs/index.ts";
export * as logs from "./logs/index.ts";
export * as usage from "./usage/index.ts";
export * as workflows from "./workflows/index.ts";
