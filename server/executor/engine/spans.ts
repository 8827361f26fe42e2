import { newId } from "../../ids.ts";
import type { TraceSpan } from "../types.ts";
import type { SpanTags } from "./scope.ts";

/** A span started now; callers push it where it belongs at once, so spans are ordered by start. */
export function openSpan(name: string, type: string, blockId: string, tags: SpanTags | null, startMs: number): TraceSpan {
  const span: TraceSpan = {
    id: newId("span"),
    name,
    type,
    blockId,
    status: "success",
    startTime: new Date(startMs).toISOString(),
    endTime: "",
    duration: 0,
    input: null,
    output: null,
    error: null,
    children: [],
  };
  if (tags !== null) {
    if (tags.loopId !== undefined) span.loopId = tags.loopId;
    if (tags.parallelId !== undefined) span.parallelId = tags.parallelId;
    span.iterationIndex = tags.iterationIndex;
  }
  return span;
}

export function closeSpan(span: TraceSpan, startMs: number, endMs: number): void {
  span.endTime = new Date(endMs).toISOString();
  span.duration = Math.max(0, endMs - startMs);
}

/** Tags of an iteration or branch: its own section and index, the enclosing other kind kept. */
export function sectionTags(outer: SpanTags | null, kind: "loop" | "parallel", id: string, index: number): SpanTags {
  if (kind === "loop") return outer?.parallelId === undefined ? { loopId: id, iterationIndex: index } : { loopId: id, parallelId: outer.parallelId, iterationIndex: index };
  return outer?.loopId === undefined ? { parallelId: id, iterationIndex: index } : { loopId: outer.loopId, parallelId: id, iterationIndex: index };
}
