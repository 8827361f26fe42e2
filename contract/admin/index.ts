export * from "./create-api-key.ts";
export * from "./create-user.ts";
export * from "./create-workspace.ts";
export * from "./list-users.ts";
export * from "./list-workspaces.ts";
export * from "./schemas.ts";
export * from "./run-workflow.ts";
