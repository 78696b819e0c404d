// Runs the real bundles (dist/app/*.cjs as `npm run build:app` makes them) against fake Electron
// modules: the wiring of main and preload is checked as shipped, not only as TypeScript.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from "#host/api/channels.ts";
import { CONTENT_SECURITY_POLICY } from "#host/api/contract.ts";
import { repoRoot } from "#host/httpHost.ts";
import { tempDir } from "#host/test/support.ts";
import { buildApp, type AppBundle } from "../build.ts";
import { FakeContextBridge, FakeIpcMain, FakeIpcRenderer } from "./fakes.ts";

const nodeRequire = createRequire(path.join(repoRoot, "package.json"));

function run(file: string, electron: unknown): string[] {
  const required: string[] = [];
  const req = (id: string) => {
    required.push(id);
    return id === "electron" ? electron : nodeRequire(id);
  };
  const module = { exports: {} };
  new Function("require", "module", "exports", "__dirname", "__filename", readFileSync(file, "utf8"))(
    req,
    module,
    module.exports,
    path.dirname(file),
    file,
  );
  return required;
}

let out: AppBundle;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "satpayload-app-"));
  out = await buildApp(path.join(root, "app"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("app bundles", () => {
  it("build without warnings and require only electron, the native modules and Node built-ins", () => {
    expect(out.warnings).toEqual([]);
    const requires = (file: string) =>
      [...new Set([...readFileSync(file, "utf8").matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!))].sort();
    expect(requires(out.preload)).toEqual(["electron"]);
    for (const id of requires(out.main))
      expect(isBuiltin(id) || /^(electron|better-sqlite3|serialport)$/.test(id), id).toBe(true);
    expect(readFileSync(out.main, "utf8")).not.toContain("__APP_VERSION__");
  });

  it("electron-builder packages exactly what the bundler writes", () => {
    const yml = readFileSync(path.join(repoRoot, "electron-builder.yml"), "utf8");
    expect(path.relative(path.join(root, "app"), out.main)).toBe("main.cjs");
    expect(yml).toContain("  main: dist/app/main.cjs\n");
    for (const line of [
      "  - dist/renderer/**",
      "  - dist/app/**",
      '  - "**/node_modules/better-sqlite3/**"',
      "npmRebuild: true",
      "productName: SatPayload Studio",
    ])
      expect(yml).toContain(`${line}\n`);
  });

  it("the preload bundle exposes exactly call and on through contextBridge", async () => {
    const ipcMain = new FakeIpcMain();
    ipcMain.handle(IPC_CALL_CHANNEL, (_e, payload) => ({ ok: true, result: payload }));
    const contextBridge = new FakeContextBridge();
    const ipcRenderer = new FakeIpcRenderer(ipcMain);
    expect(run(out.preload, { contextBridge, ipcRenderer })).toEqual(["electron"]);
    const api = contextBridge.exposed.get("satpayload") as Record<string, (...a: unknown[]) => Promise<unknown>>;
    expect([...contextBridge.exposed.keys()]).toEqual(["satpayload"]);
    expect(Object.keys(api).sort()).toEqual(["call", "on"]);
    expect(await api.call!("projects.list", { limit: 3 })).toEqual({ method: "projects.list", req: { limit: 3 } });
  });

  it("the main bundle opens a locked-down window on app://, wires IPC, the menu and the protocol", async () => {
    const dataDir = tempDir();
    mkdirSync(path.join(root, "renderer"));
    writeFileSync(path.join(root, "renderer", "index.html"), "<!doctype html><title>x</title>");
    const ipcMain = new FakeIpcMain();
    const appEvents = new Map<string, (...a: unknown[]) => void>();
    const protocols = new Map<string, (r: { url: string }) => Promise<Response>>();
    const state = {
      asked: [] as string[][],
      answer: "Leave",
      name: "",
      sandbox: false,
      schemes: [] as unknown[],
      menu: [] as { label?: string; submenu?: { label?: string; click?: () => void }[] }[],
      permission: undefined as unknown,
    };
    class BrowserWindow {
      static all: BrowserWindow[] = [];
      url = "";
      readonly sent: unknown[][] = [];
      readonly listeners = new Map<string, (e: { preventDefault(): void }) => void>();
      readonly webContents = {
        send: (...a: unknown[]) => this.sent.push(a),
        on: (event: string, l: (e: { preventDefault(): void }) => void) => this.listeners.set(event, l),
      };
      constructor(readonly opts: { webPreferences: Record<string, unknown> }) {
        BrowserWindow.all.push(this);
      }
      once() {}
      loadURL(url: string) {
        this.url = url;
        return Promise.resolve();
      }
      static getAllWindows = () => BrowserWindow.all;
      static getFocusedWindow = () => BrowserWindow.all[0] ?? null;
    }
    const electron = {
      app: {
        setName: (n: string) => (state.name = n),
        enableSandbox: () => (state.sandbox = true),
        requestSingleInstanceLock: () => true,
        on: (ev: string, fn: (...a: unknown[]) => void) => appEvents.set(ev, fn),
        whenReady: () => Promise.resolve(),
        getPath: (n: string) => (n === "userData" ? dataDir : root),
        quit: () => {},
      },
      protocol: {
        registerSchemesAsPrivileged: (s: unknown[]) => state.schemes.push(...s),
        handle: (scheme: string, fn: (r: { url: string }) => Promise<Response>) => protocols.set(scheme, fn),
      },
      session: {
        defaultSession: {
          setPermissionRequestHandler: (fn: (wc: unknown, p: string, cb: (ok: boolean) => void) => void) =>
            fn(null, "geolocation", (ok) => (state.permission = ok)),
          setPermissionCheckHandler: () => {},
          webRequest: { onHeadersReceived: () => {} },
        },
      },
      BrowserWindow,
      ipcMain,
      Menu: {
        buildFromTemplate: (t: typeof state.menu) => t,
        setApplicationMenu: (m: typeof state.menu) => (state.menu = m),
      },
      dialog: {
        showMessageBoxSync: (_win: unknown, o: { buttons: string[] }) => (
          state.asked.push(o.buttons),
          o.buttons.indexOf(state.answer)
        ),
      },
      shell: { openExternal: () => Promise.resolve(), openPath: () => Promise.resolve("") },
    };
    run(out.main, electron);
    await new Promise((r) => setImmediate(r));

    expect(state.name).toBe("SatPayload Studio");
    expect(state.sandbox).toBe(true);
    expect(state.schemes).toEqual([
      { scheme: "app", privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
    ]);
    expect(state.permission).toBe(false);
    const [win] = BrowserWindow.all;
    expect(BrowserWindow.all).toHaveLength(1);
    expect(win!.url).toBe("app://renderer/index.html");
    expect(win!.opts.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      preload: path.join(root, "app", "preload.cjs"),
    });
    // a renderer that vetoes its unload (unsaved edits) gets the native Leave / Stay question
    let unloads = 0;
    win!.listeners.get("will-prevent-unload")!({ preventDefault: () => unloads++ });
    state.answer = "Stay";
    win!.listeners.get("will-prevent-unload")!({ preventDefault: () => unloads++ });
    expect(state.asked).toEqual([
      ["Leave", "Stay"],
      ["Leave", "Stay"],
    ]);
    expect(unloads).toBe(1);

    const index = await protocols.get("app")!({ url: "app://renderer/index.html" });
    expect(index.status).toBe(200);
    expect(index.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(await index.text()).toBe("<!doctype html><title>x</title>");

    const info = await ipcMain.invoke(IPC_CALL_CHANNEL, "app://renderer/index.html", { method: "app.info", req: {} });
    expect(info).toEqual({
      ok: true,
      result: {
        version: JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).version,
        shell: "electron",
        dataDir,
      },
    });

    expect(state.menu.map((m) => m.label)).toEqual(["&File", "&Edit", "&View", "&Help"]);
    const file = state.menu[0]!.submenu!;
    expect(file.map((i) => i.label).filter(Boolean)).toEqual(["New", "Open…", "Save", "Save As…"]);
    file[0]!.click!();
    expect(win!.sent).toEqual([[IPC_EVENT_CHANNEL, { event: "app.menu", payload: { command: "new" } }]]);

    // navigation and new windows are blocked for every web contents the app creates
    const handlers = new Map<string, (e: { preventDefault(): void }, url: string) => void>();
    let openHandler: ((d: { url: string }) => { action: string }) | undefined;
    appEvents.get("web-contents-created")!(
      {},
      { on: (ev: string, fn: never) => handlers.set(ev, fn), setWindowOpenHandler: (fn: never) => (openHandler = fn) },
    );
    const navigates = (url: string) => {
      let prevented = false;
      handlers.get("will-navigate")!({ preventDefault: () => (prevented = true) }, url);
      return !prevented;
    };
    expect(navigates("https://attacker.example/")).toBe(false);
    expect(navigates("file:///etc/passwd")).toBe(false);
    expect(navigates("app://renderer/index.html")).toBe(true);
    expect(openHandler!({ url: "https://doi.org/x" })).toEqual({ action: "deny" });

    // quitting waits for the host to stop what it started, then quits again
    let prevented = 0;
    appEvents.get("will-quit")!({ preventDefault: () => prevented++ });
    expect(prevented).toBe(1);
  });
});
