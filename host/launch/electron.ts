// Finds the Electron binary the `electron` package downloads at install time (absent where the
// download was skipped, e.g. ELECTRON_SKIP_BINARY_DOWNLOAD=1 on offline build machines).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export type ElectronProbe = { ok: true; binary: string; version: string } | { ok: false; reason: string };

export function probeElectron(
  root: string,
  load: (id: string) => unknown = createRequire(path.join(root, "package.json")),
): ElectronProbe {
  let binary: unknown;
  try {
    binary = load("electron");
  } catch (e) {
    return { ok: false, reason: `the electron package has no binary (${(e as Error).message.split("\n")[0]})` };
  }
  if (typeof binary !== "string") return { ok: false, reason: "require('electron') did not return a path" };
  if (!existsSync(binary)) return { ok: false, reason: `${binary} does not exist` };
  const version = (
    JSON.parse(readFileSync(path.join(root, "node_modules", "electron", "package.json"), "utf8")) as { version: string }
  ).version;
  return { ok: true, binary, version };
}
