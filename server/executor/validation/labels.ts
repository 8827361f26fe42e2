import type { ContainerKind } from "../engine/topology.ts";

export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Names a section in messages: `Loop "l1"`, `Parallel "fanout"`. */
export function containerLabel(kind: ContainerKind, id: string): string {
  return `${kind === "loop" ? "Loop" : "Parallel"} "${id}"`;
}
