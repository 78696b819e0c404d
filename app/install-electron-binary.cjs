// npm postinstall: runs the `electron` package's binary download itself (package.json "allowScripts"
// keeps npm from running it) so that a machine that cannot reach the download server still
// finishes `npm ci`; `npm start` then opens browser mode, as it says.
const { spawnSync } = require("node:child_process");
const { existsSync } = require("node:fs");
const path = require("node:path");

const installer = path.join(__dirname, "..", "node_modules", "electron", "install.js");
// an install without devDependencies has no electron package: nothing to fetch
if (!existsSync(installer)) process.exit(0);
if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log("electron: binary download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD); npm start will use browser mode");
  process.exit(0);
}

const run = spawnSync(process.execPath, [installer], {
  cwd: path.dirname(installer),
  encoding: "utf8",
  timeout: 5 * 60_000,
});
if (run.status === 0) process.exit(0);
const output = `${run.stderr ?? ""}\n${run.stdout ?? ""}`;
const firstError =
  output
    .split("\n")
    .map((l) => l.trim())
    .find((l) => /error/i.test(l)) ??
  run.error?.message ??
  `exit code ${run.status}`;
console.warn(`electron: binary not downloaded (${firstError}).`);
console.warn(
  "electron: npm start will open browser mode; run `node node_modules/electron/install.js` with internet access for the desktop window.",
);
