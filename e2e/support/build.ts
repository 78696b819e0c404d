// The renderer the e2e suites serve: built once per test run by the vitest globalSetup
// (e2e/support/globalSetup.ts), under a lock, into a scratch folder renamed into place, so no suite
// ever sees a half-built dist/renderer.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildOnce } from "./buildLock.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const rendererDist = path.join(repoRoot, "dist/renderer");
const LOCK = path.join(repoRoot, "dist/.renderer-build.lock");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export function rendererIsCurrent(): boolean {
  const index = path.join(rendererDist, "index.html");
  if (!existsSync(index)) return false;
  const sources = Math.max(
    newestMtime(path.join(repoRoot, "renderer")),
    newestMtime(path.join(repoRoot, "codecs/src")),
    newestMtime(path.join(repoRoot, "planning/src")),
    statSync(path.join(repoRoot, "vite.config.ts")).mtimeMs,
  );
  return statSync(index).mtimeMs >= sources;
}

function viteBuild(): void {
  const scratch = path.join(repoRoot, `dist/.renderer-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  execFileSync(
    path.join(repoRoot, "node_modules/.bin/vite"),
    ["build", "--logLevel", "error", "--outDir", scratch, "--emptyOutDir"],
    { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] },
  );
  rmSync(rendererDist, { recursive: true, force: true });
  renameSync(scratch, rendererDist);
}

export async function ensureRendererBuilt(): Promise<"built" | "current"> {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  return buildOnce({ lockFile: LOCK, isCurrent: rendererIsCurrent, build: viteBuild });
}

/** For the suites: the globalSetup built it; a missing build means the run skipped the setup. */
export function requireRendererBuilt(): void {
  if (!existsSync(path.join(rendererDist, "index.html")))
    throw new Error(
      `${rendererDist} is not built: e2e suites run under vitest, whose globalSetup (e2e/support/globalSetup.ts) builds it once per run`,
    );
}
