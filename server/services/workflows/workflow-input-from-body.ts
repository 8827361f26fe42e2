/**
 * The workflow input carried by an execute request body: an object whose only key is `input`
 * carries it in `input`; any other body is the input itself. No body (or a null input) is `{}`.
 */
export function workflowInputFromBody(body: unknown): unknown {
  let input = body;
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === "input") input = (body as { input: unknown }).input;
  }
  return input ?? {};
}
