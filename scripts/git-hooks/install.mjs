#!/usr/bin/env node
// npm "prepare": installs the pre-commit hook (simple-git-hooks, configured in package.json) into a git
// checkout of this repository. Never fails an install: CI, a tarball or export without .git, a
// production install without devDependencies, or any error only prints why the hook was not installed.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = realpathSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.."));
const skip = (why) => {
  console.log(`git hooks not installed: ${why}`);
  process.exit(0);
};

if (process.env.CI && process.env.CI !== "0" && process.env.CI !== "false") skip("CI is set");
try {
  // the repository's own checkout, not a parent directory that happens to be a git repository
  const top = execFileSync("git", ["rev-parse", "--show-toplevel"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
  if (realpathSync(top) !== root) skip(`${root} is not the top of a git checkout`);
} catch {
  skip("not a git checkout (or git is not installed)");
}
let cli;
try {
  cli = createRequire(import.meta.url).resolve("simple-git-hooks/cli.js");
} catch {
  skip("simple-git-hooks is not installed (production install)");
}
try {
  execFileSync(process.execPath, [cli], { cwd: root, stdio: "inherit" });
} catch (e) {
  skip(`simple-git-hooks failed: ${e.message}`);
}
