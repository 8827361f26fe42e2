import { CONDITION_PREFIX, ELSE_HANDLE } from "../engine/handles.ts";
import { evaluateExpression } from "../sandbox/index.ts";
import { isSandboxCode } from "../template.ts";
import type { BlockHandler } from "./block-handler.ts";

/** Read as `<check.conditionResult>`, `<check.selectedConditionId>`, `<check.selectedHandle>`. */
export type ConditionOutput = { conditionResult: boolean; selectedConditionId: string | null; selectedHandle: string };

const CONDITION_ID = /^[A-Za-z0-9_-]+$/;

/**
 * Chooses a branch: the first condition (in order) whose expression is truthy sends the run along the
 * edges with sourceHandle `condition-<id>`; when none is, along `condition-else`.
 */
export const conditionBlock: BlockHandler = {
  codePaths: ["conditions.*.expression"],
  validate(params) {
    const list = params.conditions;
    if (!Array.isArray(list) || list.length === 0) return ["conditions must be a non-empty array of {id, expression}"];
    const issues: string[] = [];
    const seen = new Set<string>();
    list.forEach((c: unknown, i) => {
      const { id, expression } = (c ?? {}) as { id?: unknown; expression?: unknown };
      if (typeof id !== "string" || !CONDITION_ID.test(id)) {
        issues.push(`conditions[${i}].id must be a non-empty string of letters, digits, _ and - (got ${JSON.stringify(id)})`);
      } else if (id === "else") issues.push(`conditions[${i}].id "else" is reserved for the branch taken when no condition holds`);
      else if (seen.has(id)) issues.push(`conditions[${i}].id "${id}" is used twice`);
      else seen.add(id);
      if (typeof expression !== "string" || expression.trim() === "") {
        issues.push(`conditions[${i}].expression is required (a JavaScript expression)`);
      }
    });
    return issues;
  },
  async run(params) {
    const list = params.conditions as Array<{ id: string; expression: unknown }>;
    const traceInput = { conditions: list.map((c) => ({ id: c.id, expression: isSandboxCode(c.expression) ? c.expression.text : c.expression })) };
    for (const { id, expression } of list) {
      if (!isSandboxCode(expression)) return { output: null, error: `condition "${id}" has no expression`, traceInput };
      const outcome = await evaluateExpression({ expression: expression.source, globals: expression.globals });
      if (!outcome.ok) return { output: null, error: `condition "${id}" failed: ${outcome.error}`, traceInput };
      if (outcome.value) {
        const selectedHandle = CONDITION_PREFIX + id;
        const output: ConditionOutput = { conditionResult: true, selectedConditionId: id, selectedHandle };
        return { output, error: null, selectedHandle, traceInput };
      }
    }
    const output: ConditionOutput = { conditionResult: false, selectedConditionId: null, selectedHandle: ELSE_HANDLE };
    return { output, error: null, selectedHandle: ELSE_HANDLE, traceInput };
  },
};
