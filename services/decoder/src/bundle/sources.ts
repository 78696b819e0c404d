// The sources the services image runs, copied into the bundle so the folder alone is the build
// context: the package manifests and the five source folders the decoder and the CSE import,
// without tests, benchmarks and reference scripts.
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/** what the Dockerfile copies from src/, relative to the checkout */
export const IMAGE_SOURCES = [
  "package.json",
  "package-lock.json",
  "codecs",
  "planning",
  "contracts",
  "services",
  "host",
  "bin",
] as const;

const SKIPPED_DIRS = new Set(["test", "tests", "bench", "reference", "node_modules"]);
const skippedFile = (name: string) => name.endsWith(".test.ts") || name.endsWith(".bench.ts");

function copyTree(from: string, to: string, written: string[], rel: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name))
        copyTree(path.join(from, entry.name), path.join(to, entry.name), written, `${rel}/${entry.name}`);
    } else if (entry.isFile() && !skippedFile(entry.name)) {
      copyFileSync(path.join(from, entry.name), path.join(to, entry.name));
      written.push(`${rel}/${entry.name}`);
    }
  }
}

/**
 * Copies the image's sources from the checkout into <out>/src; returns the files written
 * (bundle-relative). The copy is made beside it and renamed into place, so src/ is always one
 * whole version of the sources, never a mix or a half.
 */
export function copyImageSources(repoRoot: string, out: string): string[] {
  const written: string[] = [];
  const final = path.join(out, "src");
  const staging = path.join(out, `.src.${randomBytes(6).toString("hex")}.tmp`);
  try {
    mkdirSync(staging, { recursive: true });
    for (const item of IMAGE_SOURCES) {
      const from = path.join(repoRoot, item);
      if (item.includes(".")) {
        copyFileSync(from, path.join(staging, item));
        written.push(`src/${item}`);
      } else copyTree(from, path.join(staging, item), written, `src/${item}`);
    }
    const old = `${staging}.old`;
    let replaced = false;
    try {
      renameSync(final, old);
      replaced = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    renameSync(staging, final);
    if (replaced) rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return written;
}
