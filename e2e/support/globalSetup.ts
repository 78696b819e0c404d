// vitest globalSetup: builds the renderer once, before any test file runs, when the run includes an
// e2e suite (a run of a few codec tests does not pay for a vite build).
import { readdirSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureRendererBuilt, repoRoot } from "./build.ts";

function runIncludesE2e(filters: readonly string[] | undefined): boolean {
  if (!filters?.length) return true;
  const suites = readdirSync(path.join(repoRoot, "e2e"))
    .filter((f) => f.endsWith(".e2e.test.ts"))
    .map((f) => `e2e/${f}`);
  // vitest matches a filter as a substring of the file's path
  return filters.some((f) =>
    suites.some((s) => path.join(repoRoot, s).includes(f) || s.includes(f.replace(/^\.\//, ""))),
  );
}

export default async function setup(project: TestProject): Promise<void> {
  // the CLI's file filters (vitest keeps them as filenamePattern before it runs the global setups)
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (!runIncludesE2e(filters)) return;
  const started = Date.now();
  const result = await ensureRendererBuilt();
  if (result === "built")
    console.log(`globalSetup: built dist/renderer in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
