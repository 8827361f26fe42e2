/** A JSON schema the reply must follow, in the shape every provider adapter maps from. */
export type JsonSchemaFormat = { name: string; schema: Record<string, unknown>; strict?: boolean };

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const DEFAULT_NAME = "response";

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Reads a `responseFormat` param: a JSON schema object, or OpenAI's wrappers `{name?, schema, strict?}`
 * and `{type: "json_schema", json_schema: {...}}`, each also accepted as JSON text (editors store
 * text). null when there is no format; `{error}` when it is not one of these.
 */
export function toJsonSchemaFormat(value: unknown): JsonSchemaFormat | { error: string } | null {
  if (value === undefined || value === null) return null;
  let format = value;
  if (typeof format === "string") {
    if (format.trim() === "") return null;
    try {
      format = JSON.parse(format);
    } catch {
      return { error: "responseFormat must be a JSON schema object (the text given is not valid JSON)" };
    }
  }
  if (!isRecord(format)) return { error: "responseFormat must be a JSON schema object" };
  if (format.type === "json_schema" && isRecord(format.json_schema)) format = format.json_schema;
  const wrapper = format as Record<string, unknown>;
  if (isRecord(wrapper.schema) && wrapper.type === undefined && wrapper.properties === undefined) {
    const name = typeof wrapper.name === "string" && NAME.test(wrapper.name) ? wrapper.name : DEFAULT_NAME;
    return { name, schema: wrapper.schema, ...(typeof wrapper.strict === "boolean" ? { strict: wrapper.strict } : {}) };
  }
  return { name: DEFAULT_NAME, schema: wrapper };
}
