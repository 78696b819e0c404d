// `npm start` in a checkout: node_modules/better-sqlite3 is built for Node (browser mode and tests
// need it so), Electron needs one built for its own ABI. This keeps an Electron build beside it in
// node_modules/.cache and passes its path to main through SATPAYLOAD_SQLITE_BINDING. Packaged apps
// do not need it: electron-builder rebuilds node_modules for Electron.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";

export function electronSqliteBinding(
  root: string,
  electronVersion: string,
  log: (s: string) => void = console.log,
): string | null {
  const cache = path.join(
    root,
    "node_modules",
    ".cache",
    "satpayload",
    `better-sqlite3-electron-${electronVersion}-${process.platform}-${process.arch}`,
  );
  const binding = path.join(cache, "better_sqlite3.node");
  if (existsSync(binding)) return binding;
  const src = path.join(root, "node_modules", "better-sqlite3");
  const work = `${cache}.work`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const part of ["package.json", "binding.gyp", "src", "deps", "lib"])
    cpSync(path.join(src, part), path.join(work, part), { recursive: true });
  log(`Fetching better-sqlite3 for Electron ${electronVersion} (once; cached in ${path.relative(root, cache)})`);
  const run = (cmd: string, args: string[]) =>
    spawnSync(cmd, args, { cwd: work, stdio: "inherit", shell: process.platform === "win32" }).status === 0;
  const prebuilt = run(process.execPath, [
    path.join(root, "node_modules", "prebuild-install", "bin.js"),
    "--runtime",
    "electron",
    "--target",
    electronVersion,
    "--arch",
    process.arch,
  ]);
  const built =
    prebuilt ||
    run(process.platform === "win32" ? "npx.cmd" : "npx", [
      "--yes",
      "node-gyp",
      "rebuild",
      "--release",
      `--target=${electronVersion}`,
      `--arch=${process.arch}`,
      "--dist-url=https://electronjs.org/headers",
    ]);
  const out = path.join(work, "build", "Release", "better_sqlite3.node");
  if (!built || !existsSync(out)) {
    rmSync(work, { recursive: true, force: true });
    return null;
  }
  mkdirSync(cache, { recursive: true });
  cpSync(out, binding);
  rmSync(work, { recursive: true, force: true });
  return binding;
}
