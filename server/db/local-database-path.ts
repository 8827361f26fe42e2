/**
 * The file path of a plain `file:` URL (`file:data/app.db`, `file:/abs/app.db`, `file:///abs/app.db`,
 * `file://localhost/abs/app.db`), or undefined when the URL needs @libsql/client's own handling:
 * in-memory databases, query parameters, other hosts, other schemes.
 */
export function localDatabasePath(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  let rest = url.slice("file:".length);
  if (rest.includes("?") || rest.includes("#")) return undefined;
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    if (slash < 0) return undefined;
    const host = rest.slice(2, slash).toLowerCase();
    if (host !== "" && host !== "localhost") return undefined;
    rest = rest.slice(slash);
  }
  let path: string;
  try {
    path = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  if (path === "" || path.startsWith(":memory:")) return undefined;
  return path;
}
