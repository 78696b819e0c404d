// Finds the reference-peer Python venv; CI creates it, so its absence is a setup error, not a skip.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export function referencePython(): string {
  const py = process.env.SATPAYLOAD_PYTHON ?? path.join(repoRoot, ".venv/bin/python");
  if (!existsSync(py))
    throw new Error(`reference Python not found at ${py}: run 'bash .ci/setup-python.sh' (CI does this)`);
  return py;
}

/** Runs a Python script with JSON on stdin and returns its JSON stdout. */
export function runPython(script: string, input: unknown, args: string[] = []): unknown {
  const out = execFileSync(referencePython(), [script, ...args], {
    input: JSON.stringify(input),
    maxBuffer: 256 * 1024 * 1024,
    cwd: repoRoot,
  });
  return JSON.parse(out.toString("utf8"));
}
