import { redactHeaders } from "../redact.ts";
import { embed } from "../template.ts";
import type { BlockHandler, ResponseSpec } from "./block-handler.ts";
import { checkKeyValues, isWholeReference, toPairs } from "./param-checks.ts";

export const DEFAULT_RESPONSE_STATUS = 200;

/** Shapes what a synchronous caller receives: `data` becomes the run's output, plus status and headers. */
export const responseBlock: BlockHandler = {
  validate(params) {
    const issues: string[] = [];
    const status = params.status;
    if (status !== undefined && !isWholeReference(status) && !validStatus(status)) {
      issues.push(`status must be an integer from 100 to 599 or a <block.path> reference (got ${JSON.stringify(status)})`);
    }
    checkKeyValues(params, "headers", issues, { headerNames: true });
    return issues;
  },
  run(params) {
    const status = toStatus(params.status);
    if (status === null) {
      return { output: null, error: `status must be an integer from 100 to 599 (got ${embed(params.status) || "nothing"})` };
    }
    const headers = new Map<string, string>();
    for (const [name, value] of toPairs(params.headers)) {
      if (value === undefined || value === null) continue;
      const text = embed(value);
      if (/[\r\n]/.test(text)) return { output: null, error: `header "${name}" must not contain line breaks` };
      headers.set(name.toLowerCase(), text);
    }
    const data = params.data === undefined ? null : params.data;
    const response: ResponseSpec = { data, status, headers: Object.fromEntries(headers) };
    // The caller gets the real headers; the trace span must not keep credentials (e.g. set-cookie).
    const traced = { ...response, headers: redactHeaders(response.headers) };
    const traceInput = params.headers === undefined ? params : { ...params, headers: redactHeaders(params.headers) };
    return { output: response, error: null, response, traceInput, traceOutput: traced };
  },
};

function validStatus(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 100 && value <= 599;
}

function toStatus(value: unknown): number | null {
  if (value === undefined || value === null) return DEFAULT_RESPONSE_STATUS;
  const n = typeof value === "string" && /^\d{3}$/.test(value.trim()) ? Number(value.trim()) : value;
  return validStatus(n) ? n : null;
}
