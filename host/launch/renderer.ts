// Builds the designer UI when dist/renderer is missing or older than what it is built from.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** everything the vite build reads: the UI, the codecs and planning it bundles (workers too), the contract */
const SOURCES = ["renderer", "codecs/src", "planning/src", "host/api", "vite.config.ts", "package.json"];

function newestMtime(p: string): number {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(p, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(p, e.name)));
  }
  return newest;
}

export function rendererStaleness(root: string): string | null {
  const index = path.join(root, "dist", "renderer", "index.html");
  if (!existsSync(index)) return "dist/renderer is missing";
  const built = statSync(index).mtimeMs;
  for (const s of SOURCES) if (newestMtime(path.join(root, s)) > built) return `${s} changed since the last build`;
  return null;
}

export function ensureRenderer(root: string, log: (s: string) => void = console.log): void {
  const stale = rendererStaleness(root);
  if (!stale) return;
  const scripts =
    (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts?: Record<string, string> })
      .scripts ?? {};
  if (!scripts["build:renderer"])
    throw new Error(`${stale}, and package.json has no "build:renderer" script to build it`);
  log(`Building the designer UI (${stale}): npm run build:renderer`);
  const r = spawnSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build:renderer"], {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  if (r.status !== 0) throw new Error(`npm run build:renderer failed (exit ${r.status ?? r.signal})`);
}
