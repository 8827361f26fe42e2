export * from "./create-folder.ts";
export * from "./list-folders.ts";
export * from "./schemas.ts";
