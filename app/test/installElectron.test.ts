// `npm ci` must finish where the Electron binary cannot be downloaded (the README's first command on
// an offline machine): npm itself never runs electron's download, our postinstall runs it and only
// warns when it fails.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

function installWithElectronInstaller(installerSource: string, env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "electron-install-"));
  mkdirSync(path.join(dir, "app"));
  mkdirSync(path.join(dir, "node_modules", "electron"), { recursive: true });
  copyFileSync(
    path.join(root, "app", "install-electron-binary.cjs"),
    path.join(dir, "app", "install-electron-binary.cjs"),
  );
  writeFileSync(path.join(dir, "node_modules", "electron", "install.js"), installerSource);
  const { ELECTRON_SKIP_BINARY_DOWNLOAD: _skip, ...rest } = process.env;
  return spawnSync(process.execPath, [path.join(dir, "app", "install-electron-binary.cjs")], {
    encoding: "utf8",
    env: { ...rest, ...env },
  });
}

describe("Electron binary download at install time", () => {
  it("is not run by npm itself, only by our postinstall", () => {
    expect(pkg.allowScripts.electron).toBe(false);
    expect(pkg.scripts.postinstall).toBe("node app/install-electron-binary.cjs");
  });

  it("a failed download warns, names browser mode and exits 0", () => {
    const run = installWithElectronInstaller(
      `console.error("RequestError: getaddrinfo ENOTFOUND github.com"); process.exit(1);`,
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("binary not downloaded (RequestError: getaddrinfo ENOTFOUND github.com)");
    expect(run.stderr).toContain("browser mode");
  });

  it("a successful download is silent", () => {
    const run = installWithElectronInstaller(`process.exit(0);`);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  });

  it("ELECTRON_SKIP_BINARY_DOWNLOAD skips the download", () => {
    const run = installWithElectronInstaller(`require("fs").writeFileSync(__dirname + "/ran", ""); process.exit(1);`, {
      ELECTRON_SKIP_BINARY_DOWNLOAD: "1",
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("skipped");
  });
});
