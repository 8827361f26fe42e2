export * from "./get-execution.ts";
export * from "./get-log.ts";
export * from "./list-logs.ts";
export * from "./query-params.ts";
export * from "./schemas.ts";
