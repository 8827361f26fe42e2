import { isWholeReference } from "../blocks/param-checks.ts";
import { MAX_LOOP_ITERATIONS, MAX_PARALLEL_BRANCHES } from "../engine/limits.ts";
import { findReferences } from "../references.ts";
import { isRecord } from "./labels.ts";

export const LOOP_TYPES = ["for", "forEach", "while", "doWhile"] as const;
export const PARALLEL_TYPES = ["count", "collection"] as const;

/** Problems with a loop's own settings, as messages without the loop label. */
export function loopSettingIssues(spec: Record<string, unknown>): string[] {
  const issues: string[] = [];
  switch (spec.loopType) {
    case "for":
      checkCount(spec, "iterations", 0, MAX_LOOP_ITERATIONS, issues);
      break;
    case "forEach":
      checkItems(spec, "forEachItems", MAX_LOOP_ITERATIONS, issues);
      break;
    case "while":
    case "doWhile":
      if (typeof spec.condition !== "string" || spec.condition.trim() === "") {
        issues.push(`a ${spec.loopType} loop needs a condition (a JavaScript expression)`);
      }
      break;
    default:
      issues.push(`loopType must be one of ${LOOP_TYPES.join(", ")} (got ${JSON.stringify(spec.loopType)})`);
  }
  return issues;
}

/** Problems with a parallel's own settings, as messages without the parallel label. */
export function parallelSettingIssues(spec: Record<string, unknown>): string[] {
  const issues: string[] = [];
  if (spec.parallelType === "count") checkCount(spec, "count", 1, MAX_PARALLEL_BRANCHES, issues);
  else if (spec.parallelType === "collection") checkItems(spec, "distribution", MAX_PARALLEL_BRANCHES, issues);
  else issues.push(`parallelType must be one of ${PARALLEL_TYPES.join(", ")} (got ${JSON.stringify(spec.parallelType)})`);
  return issues;
}

function checkCount(spec: Record<string, unknown>, key: string, min: number, max: number, issues: string[]): void {
  const value = spec[key];
  if (isWholeReference(value)) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    issues.push(`${key} must be an integer from ${min} to ${max} or a <block.path> reference (got ${JSON.stringify(value)})`);
  }
}

/** Items are an array, an object (its entries), or a text: a reference, or JSON of an array or object. */
function checkItems(spec: Record<string, unknown>, key: string, max: number, issues: string[]): void {
  const value = spec[key];
  const expected = "an array, an object, a <block.path> reference or a JSON string of an array or object";
  let items: unknown = value;
  if (typeof value === "string") {
    if (findReferences(value).length > 0) return;
    try {
      items = JSON.parse(value);
    } catch {
      items = undefined;
    }
    if (!Array.isArray(items) && !isRecord(items)) {
      issues.push(`${key} must be ${expected} (got a string that is not one)`);
      return;
    }
  }
  if (Array.isArray(items) || isRecord(items)) {
    const count = Array.isArray(items) ? items.length : Object.keys(items).length;
    if (count > max) issues.push(`${key} has ${count} items; at most ${max} are allowed`);
    return;
  }
  issues.push(`${key} must be ${expected} (got ${JSON.stringify(value) ?? "nothing"})`);
}
