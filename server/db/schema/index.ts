export * from "./users.ts";
export * from "./workspaces.ts";
export * from "./api-keys.ts";
export * from "./folders.ts";
export * from "./workflows.ts";
export * from "./execution-logs.ts";
export * from "./limits.ts";
