import type { z } from "zod";

type AnyDef = { type?: string; innerType?: AnyType; coerce?: boolean };
type AnyType = { _zod: { def: AnyDef } };

/**
 * Query-string parameters as the OpenAPI adapter reads them: one value per name, or an array when a
 * name is repeated (which a string parameter then refuses).
 */
export function queryInput(url: URL): Record<string, string | string[]> {
  const input: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const seen = input[name];
    input[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return input;
}

/**
 * Makes the number parameters of a query schema accept their text form, as the OpenAPI adapter
 * does for every query procedure (it sets the same flag on the shared schema on first use).
 */
export function coerceQueryNumbers(schema: z.ZodObject): void {
  for (const field of Object.values(schema.shape) as AnyType[]) {
    let def = field._zod.def;
    while (def.innerType) def = def.innerType._zod.def;
    if (def.type === "number") def.coerce = true;
  }
}
