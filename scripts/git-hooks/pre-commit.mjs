#!/usr/bin/env node
// Pre-commit hook (installed by `npm install`/`npm ci` through simple-git-hooks, see package.json):
// Prettier --check and ESLint on the staged files only, so a commit cannot bring in unformatted code, a
// wrong import order or a layer violation. It checks the files as they are in the working tree.
// Skip once with `git commit --no-verify` (or SKIP_SIMPLE_GIT_HOOKS=1).
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();

/** the file a package's bin entry points at, so the hook needs neither npx nor a PATH */
function bin(pkg, name = pkg) {
  const manifest = require.resolve(`${pkg}/package.json`, { paths: [root] });
  const { bin: b } = JSON.parse(readFileSync(manifest, "utf8"));
  return path.join(path.dirname(manifest), typeof b === "string" ? b : b[name]);
}

// added, copied, modified or renamed: deleted files have nothing to check
const staged = execFileSync("git", ["diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\0")
  .filter(Boolean);
if (!staged.length) process.exit(0);

const run = (file, args) => spawnSync(process.execPath, [file, ...args], { cwd: root, stdio: "inherit" }).status === 0;

// --ignore-unknown: files Prettier has no parser for (.c, .py, .png) pass; .prettierignore still applies
const formatted = run(bin("prettier"), ["--check", "--ignore-unknown", "--log-level", "warn", "--", ...staged]);
const lintable = staged.filter((f) => /\.(ts|tsx|js|mjs|cjs)$/.test(f));
const linted = !lintable.length || run(bin("eslint"), ["--max-warnings", "0", "--no-warn-ignored", "--", ...lintable]);

if (formatted && linted) process.exit(0);
console.error(
  [
    "",
    "pre-commit: the staged files above need fixing before this commit:",
    !formatted && "  npx prettier --write <the files Prettier listed>",
    !linted &&
      "  npx eslint --fix <the files ESLint listed>   (import order, duplicates; layer errors need a different import)",
    "then `git add` them again. (`git commit --no-verify` skips this check.)",
  ]
    .filter(Boolean)
    .join("\n"),
);
process.exit(1);
