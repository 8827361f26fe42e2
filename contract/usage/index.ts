export * from "./get-usage-limits.ts";
export * from "./schemas.ts";
