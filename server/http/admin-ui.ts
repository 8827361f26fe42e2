import { existsSync, readFileSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import type { Env, Hono } from "hono";

const distDir = fileURLToPath(new URL("../../dist/admin-ui", import.meta.url));
const sourceIndex = fileURLToPath(new URL("../../admin-ui/index.html", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/**
 * Serves the built admin SPA from dist/admin-ui (`npm run build:ui`); before a build, the
 * placeholder page in admin-ui/index.html.
 */
export function serveAdminUi<E extends Env>(app: Hono<E>) {
  app.get("/*", (c) => {
    const built = existsSync(join(distDir, "index.html"));
    const root = built ? distDir : null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(c.req.path);
    } catch {
      return c.notFound();
    }
    const path = normalize(decoded).replace(/^(\.\.[/\\])+/, "");
    if (root && path !== "/") {
      const file = join(root, path);
      if (file.startsWith(root) && existsSync(file) && extname(file)) {
        return c.body(readFileSync(file), 200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      }
    }
    const index = root ? join(root, "index.html") : sourceIndex;
    return c.html(readFileSync(index, "utf8"));
  });
}
