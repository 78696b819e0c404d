// Starts the desktop shell: bundle main/preload, make sure SQLite loads in Electron, run the binary.
import { spawn } from "node:child_process";
import { electronSqliteBinding } from "#host/launch/electronSqlite.ts";
import { buildApp } from "./build.ts";

/** resolves with the exit code, or false when Electron cannot be started and browser mode should run */
export async function runElectron(root: string, binary: string, version: string): Promise<number | false> {
  const bundle = await buildApp();
  for (const w of bundle.warnings) console.warn(`warning: ${w}`);
  const binding = electronSqliteBinding(root, version);
  if (!binding) {
    console.log(`Could not get better-sqlite3 built for Electron ${version} (offline?).`);
    return false;
  }
  console.log(`SatPayload Studio — desktop mode (Electron ${version})`);
  const child = spawn(binary, [bundle.main], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, SATPAYLOAD_SQLITE_BINDING: binding, ELECTRON_RUN_AS_NODE: undefined },
  });
  const forward = (sig: NodeJS.Signals) => () => child.kill(sig);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
