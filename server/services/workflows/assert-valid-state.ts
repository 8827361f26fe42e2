import { AppError } from "../../errors.ts";
import { validateWorkflowState } from "../../executor/index.ts";
import type { ValidationIssue } from "../../executor/types.ts";

/**
 * 400 INVALID_WORKFLOW with the first issue in the message and every issue in `details`. The
 * executor's messages already name the block (name and id) or edge concerned.
 */
export function assertValidState(state: unknown): void {
  const issues = validateWorkflowState(state);
  if (issues.length === 0) return;
  throw new AppError(400, "INVALID_WORKFLOW", describeIssues(issues), issues);
}

function describeIssues(issues: ValidationIssue[]): string {
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? "s" : ""})` : "";
  return `Invalid workflow: ${issues[0].message}${more}`;
}
