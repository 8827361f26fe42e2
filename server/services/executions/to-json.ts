/** JSON text of a run's value for a log column; never throws (a value JSON cannot hold is noted). */
export function toJson(value: unknown): string | null {
  if (value === undefined) return null;
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return JSON.stringify({ error: "The value could not be serialized as JSON" });
  }
}
