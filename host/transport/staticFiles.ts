// Maps a URL path onto the built renderer (dist/renderer); shared by the HTTP server and Electron's
// app:// protocol so both shells serve the same files with the same types.
import { statSync } from "node:fs";
import path from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
}

export type StaticResult =
  | { kind: "file"; file: string; contentType: string; size: number; immutable: boolean }
  | { kind: "bad"; reason: string }
  | { kind: "missing" };

function isFile(p: string): number | undefined {
  try {
    const st = statSync(p);
    return st.isFile() ? st.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resolves a request path inside `root`. Paths without an extension fall back to index.html (the
 * designer is a single-page app); hidden files and anything outside root are never served.
 */
export function resolveStatic(root: string, urlPath: string): StaticResult {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: "bad", reason: "the path is not valid percent-encoding" };
  }
  if (decoded.includes("\0") || decoded.includes("\\"))
    return { kind: "bad", reason: "the path holds a forbidden character" };
  const segments = decoded.split("/").filter(Boolean);
  if (segments.some((s) => s.startsWith(".")))
    return { kind: "bad", reason: "dot segments and hidden files are not served" };
  const base = path.resolve(root);
  const rel = segments.length ? segments.join("/") : "index.html";
  const file = path.join(base, rel);
  if (file !== base && !file.startsWith(base + path.sep))
    return { kind: "bad", reason: "the path leaves the renderer directory" };
  const size = isFile(file);
  if (size !== undefined)
    return { kind: "file", file, contentType: contentTypeFor(file), size, immutable: segments[0] === "assets" };
  if (path.extname(rel) === "") {
    const index = path.join(base, "index.html");
    const indexSize = isFile(index);
    if (indexSize !== undefined)
      return { kind: "file", file: index, contentType: CONTENT_TYPES[".html"]!, size: indexSize, immutable: false };
  }
  return { kind: "missing" };
}
