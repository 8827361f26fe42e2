export * from "./get-job.ts";
export * from "./schemas.ts";
