import { randomUUID } from "node:crypto";

/** Opaque identifiers with a readable prefix naming the resource. */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll("-", "")}`;
}
