// Builds the renderer when dist/renderer is missing or older than any source it is built from.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const rendererDist = path.join(repoRoot, "dist/renderer");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export function ensureRendererBuilt(): void {
  const index = path.join(rendererDist, "index.html");
  const sources = Math.max(
    newestMtime(path.join(repoRoot, "renderer")),
    newestMtime(path.join(repoRoot, "codecs/src")),
    statSync(path.join(repoRoot, "vite.config.ts")).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execFileSync(path.join(repoRoot, "node_modules/.bin/vite"), ["build", "--logLevel", "error"], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] });
}
