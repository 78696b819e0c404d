import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { TOKEN_HEADER } from "../api/contract.ts";
import { repoRoot } from "../httpHost.ts";
import { tempDir } from "./support.ts";
import { probeElectron } from "../launch/electron.ts";
import { parseLaunchArgs, shouldOpenBrowser } from "../launch/options.ts";
import { rendererStaleness } from "../launch/renderer.ts";
import { defaultDataDir } from "../paths.ts";

describe("launch options", () => {
  it("puts the data where Electron's userData for SatPayload Studio is, unless SATPAYLOAD_DATA_DIR says otherwise", () => {
    expect(defaultDataDir({ SATPAYLOAD_DATA_DIR: "/srv/sp" }, "linux", "/home/u")).toBe("/srv/sp");
    expect(defaultDataDir({}, "linux", "/home/u")).toBe("/home/u/.config/SatPayload Studio");
    expect(defaultDataDir({ XDG_CONFIG_HOME: "/cfg" }, "linux", "/home/u")).toBe("/cfg/SatPayload Studio");
    expect(defaultDataDir({}, "darwin", "/Users/u")).toBe("/Users/u/Library/Application Support/SatPayload Studio");
    expect(defaultDataDir({ APPDATA: "/c/Users/u/AppData/Roaming" }, "win32", "/c/Users/u")).toBe(
      path.join("/c/Users/u/AppData/Roaming", "SatPayload Studio"),
    );
  });

  it("parses --port and --no-build, with SATPAYLOAD_PORT as the default", () => {
    expect(parseLaunchArgs([], {})).toEqual({ port: 0, build: true });
    expect(parseLaunchArgs(["--port", "8765"], {})).toEqual({ port: 8765, build: true });
    expect(parseLaunchArgs(["--port=0", "--no-build"], { SATPAYLOAD_PORT: "9000" })).toEqual({ port: 0, build: false });
    expect(parseLaunchArgs([], { SATPAYLOAD_PORT: "9000" })).toEqual({ port: 9000, build: true });
    expect(() => parseLaunchArgs(["--port", "70000"], {})).toThrow(
      '--port must be 0 (any free port) to 65535, not "70000"',
    );
    expect(() => parseLaunchArgs(["--port", "-1"], {})).toThrow(/--port must be/);
    expect(() => parseLaunchArgs(["--port"], {})).toThrow(/--port must be/);
    expect(() => parseLaunchArgs(["--open"], {})).toThrow("unknown option --open (options: --port N, --no-build)");
  });

  it("opens a browser only with a display and outside CI", () => {
    expect(shouldOpenBrowser({ CI: "true", DISPLAY: ":0" }, "linux")).toBe(false);
    expect(shouldOpenBrowser({}, "linux")).toBe(false);
    expect(shouldOpenBrowser({ DISPLAY: ":0" }, "linux")).toBe(true);
    expect(shouldOpenBrowser({ WAYLAND_DISPLAY: "wayland-0" }, "linux")).toBe(true);
    expect(shouldOpenBrowser({}, "darwin")).toBe(true);
    expect(shouldOpenBrowser({ CI: "true" }, "win32")).toBe(false);
  });

  it("detects whether the Electron binary is there", () => {
    const missing = probeElectron(repoRoot, () => {
      throw new Error(
        "Electron failed to install correctly, please delete node_modules/electron and try installing again",
      );
    });
    expect(missing).toEqual({
      ok: false,
      reason:
        "the electron package has no binary (Electron failed to install correctly, please delete node_modules/electron and try installing again)",
    });
    expect(probeElectron(repoRoot, () => "/nonexistent/electron")).toEqual({
      ok: false,
      reason: "/nonexistent/electron does not exist",
    });
    const fake = path.join(tempDir(), "electron");
    writeFileSync(fake, "");
    expect(probeElectron(repoRoot, () => fake)).toMatchObject({
      ok: true,
      binary: fake,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  it("rebuilds the renderer when it is missing or older than its sources", () => {
    const root = tempDir();
    mkdirSync(path.join(root, "renderer", "src"), { recursive: true });
    writeFileSync(path.join(root, "renderer", "src", "App.tsx"), "");
    expect(rendererStaleness(root)).toBe("dist/renderer is missing");
    mkdirSync(path.join(root, "dist", "renderer"), { recursive: true });
    writeFileSync(path.join(root, "dist", "renderer", "index.html"), "");
    const t = Date.now() / 1000;
    for (const p of ["renderer/src/App.tsx", "renderer/src", "renderer"])
      utimesSync(path.join(root, p), t - 100, t - 100);
    utimesSync(path.join(root, "dist", "renderer", "index.html"), t - 50, t - 50);
    expect(rendererStaleness(root)).toBeNull();
    utimesSync(path.join(root, "renderer", "src", "App.tsx"), t, t);
    expect(rendererStaleness(root)).toBe("renderer changed since the last build");
  });
});

function get(url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: body === undefined ? "GET" : "POST", headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Runs a launcher like `npm start`, without a display, and talks to the server it prints. */
async function launch(script: string): Promise<{ output: string; info: unknown; exit: number | null }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: "true", SATPAYLOAD_DATA_DIR: tempDir() };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  // owned: a launcher still running when the test fails or times out is stopped with tsx's node child
  const { child } = spawnOwned(
    process.execPath,
    [path.join(repoRoot, "node_modules", "tsx", "dist", "cli.mjs"), script, "--port", "0", "--no-build"],
    { cwd: repoRoot, env, name: script },
  );
  let output = "";
  child.stderr!.on("data", (c) => (output += c));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (c) => {
      output += c;
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(output);
      if (m && output.includes("Ctrl+C")) resolve(m[1]!);
    });
    child.on("exit", () => reject(new Error(`launcher exited early:\n${output}`)));
  });
  const u = new URL(url);
  const token = u.hash.slice("#token=".length);
  const r = await get(
    `${u.origin}/api/call/app.info`,
    { host: u.host, "content-type": "application/json", [TOKEN_HEADER]: token },
    "{}",
  );
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return { output, info: r.status === 200 ? JSON.parse(r.text) : r, exit: await exited };
}

describe("launchers", () => {
  it("npm run web serves browser mode, prints the tokened URL and stops cleanly", async () => {
    const { output, info, exit } = await launch("bin/web.ts");
    expect(output).toContain("SatPayload Studio — browser mode (npm run web)");
    expect(output).toContain("Not opening a browser (CI or no display)");
    expect(info).toMatchObject({ shell: "browser" });
    expect(exit).toBe(0);
  });

  it("npm start without a usable Electron says so and falls back to browser mode", async () => {
    const { output, info, exit } = await launch("bin/start.ts");
    expect(output).toMatch(
      /SatPayload Studio — browser mode \((no Electron binary|Electron is installed but there is no display)/,
    );
    expect(info).toMatchObject({ shell: "browser" });
    expect(exit).toBe(0);
  });
});
