export type ExecutionRequest = { input: unknown; async?: boolean };

const ENVELOPE_KEYS = new Set(["input", "async"]);

/**
 * What an execute request body asks for. An object whose keys are only `input` and a boolean `async`
 * is the envelope form `{input?, async?}`; any other body is the input itself. No body (or a null
 * input) is the input `{}`. (docs/workflows.md, "Running a workflow")
 */
export function executionRequestFromBody(body: unknown): ExecutionRequest {
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const keys = Object.keys(record);
    const envelope =
      keys.length > 0 &&
      keys.every((k) => ENVELOPE_KEYS.has(k)) &&
      (record.async === undefined || typeof record.async === "boolean");
    if (envelope) {
      const request: ExecutionRequest = { input: record.input ?? {} };
      if (typeof record.async === "boolean") request.async = record.async;
      return request;
    }
  }
  return { input: body ?? {} };
}

/** The workflow input carried by an execute request body (see executionRequestFromBody). */
export function workflowInputFromBody(body: unknown): unknown {
  return executionRequestFromBody(body).input;
}
