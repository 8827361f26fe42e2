/** The name references use for a block: `<My API.data>` is written `<myapi.data>` (any case works). */
export function normalizeBlockName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, "");
}

/** Names a block in messages: `Block "Fetch user" (b2)`. */
export function blockLabel(id: string, name: unknown): string {
  return typeof name === "string" && name.trim() !== "" ? `Block "${name}" (${id})` : `Block ${id}`;
}
