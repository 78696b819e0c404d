// The studio's version as package.json states it: what the host reports to the app and what the stack's
// deploy bundles are stamped with.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./launch.ts";

export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
}
