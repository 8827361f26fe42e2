import type { BlockHandler } from "./block-handler.ts";

const VARIABLE_NAME = /^[A-Za-z0-9_$-]+$/;

/**
 * Sets workflow variables, read anywhere after as `<variable.name>`. Values may be references; later
 * writes of a name replace earlier ones. Output: the values it set.
 */
export const variablesBlock: BlockHandler = {
  validate(params) {
    const vars = params.variables;
    if (vars === null || typeof vars !== "object" || Array.isArray(vars)) return ["variables must be an object {name: value}"];
    const issues: string[] = [];
    for (const name of Object.keys(vars)) {
      if (!VARIABLE_NAME.test(name)) issues.push(`variable name "${name}" may only use letters, digits, _, $ and -`);
    }
    return issues;
  },
  run(params, ctx) {
    const vars = params.variables as Record<string, unknown>;
    if (ctx.variables === undefined) return { output: null, error: "workflow variables are not available here" };
    for (const name of Object.keys(vars)) ctx.variables[name] = vars[name];
    return { output: vars, error: null };
  },
};
