/** "number", "boolean", "array", "object"... for messages about a param of the wrong type. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
