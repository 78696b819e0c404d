// Where `acmecse` comes from: the repository's reference venv when it has it (tests and developers,
// offline), otherwise a venv in the app's data directory, created and filled from PyPI on first
// use with the version the tests run against (services/requirements.txt).
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../shared/launch.ts";

const run = promisify(execFile);

export const REPO_VENV = path.join(repoRoot, ".venv");

const bin = (venv: string, name: string) =>
  path.join(
    venv,
    process.platform === "win32" ? "Scripts" : "bin",
    process.platform === "win32" ? `${name}.exe` : name,
  );

/** acmecse==X from services/requirements.txt: the version whose behaviour the tests pin down */
export function acmeRequirement(): string {
  const line = readFileSync(path.join(repoRoot, "services/requirements.txt"), "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .find((l) => /^acmecse\b/i.test(l));
  if (!line) throw new Error("services/requirements.txt names no acmecse version");
  return line;
}

export class AcmeInstallError extends Error {
  override readonly name = "AcmeInstallError";
}

/** the acmecse executable, installing it into `venv` when neither venv has it */
export async function ensureAcme(venv: string, log: (m: string) => void): Promise<string> {
  for (const v of [REPO_VENV, venv]) if (existsSync(bin(v, "acmecse"))) return bin(v, "acmecse");
  const python = process.env.SATPAYLOAD_PYTHON3 ?? (process.platform === "win32" ? "python" : "python3");
  const requirement = acmeRequirement();
  log(`installing ${requirement} into ${venv} (first use; needs Python 3.10+ and internet access)`);
  try {
    if (!existsSync(bin(venv, "python"))) await run(python, ["-m", "venv", venv], { timeout: 120_000 });
    await run(bin(venv, "python"), ["-m", "pip", "install", "--disable-pip-version-check", "--quiet", requirement], {
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new AcmeInstallError(
      `could not install ${requirement} into ${venv}: ${(err.stderr || err.message).trim().split("\n").slice(-5).join(" ")}`,
    );
  }
  if (!existsSync(bin(venv, "acmecse")))
    throw new AcmeInstallError(`pip installed ${requirement} but ${bin(venv, "acmecse")} is missing`);
  log(`installed ${requirement}`);
  return bin(venv, "acmecse");
}
