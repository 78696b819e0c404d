// Electron main process, bundled to dist/app/main.cjs. Thin by design: window, menu, dialogs and the
// IPC wiring into the same host the browser mode runs.
import path from "node:path";
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, shell } from "electron";
import { IPC_EVENT_CHANNEL } from "#host/api/channels.ts";
import { createHost, type Host } from "#host/host.ts";
import { PRODUCT_NAME } from "#host/paths.ts";
import { electronDialogs } from "./dialogs.ts";
import { hardenContents, hardenSession } from "./harden.ts";
import { registerHostIpc } from "./ipc.ts";
import { wireLeavePrompt } from "./leavePrompt.ts";
import { menuTemplate, type MenuCommand } from "./menu.ts";
import { APP_INDEX_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, appProtocolResponse, isAppUrl } from "./protocol.ts";

/** replaced by the bundler with package.json's version (Electron started on a file has no package.json) */
declare const __APP_VERSION__: string;

// before "ready": the name picks the userData directory browser mode also uses
app.setName(PRODUCT_NAME);
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
app.enableSandbox();

const rendererDir = path.join(__dirname, "..", "renderer");
const preload = path.join(__dirname, "preload.cjs");
let host: Host | undefined;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: PRODUCT_NAME,
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  });
  win.once("ready-to-show", () => win.show());
  wireLeavePrompt(win.webContents, (o) => dialog.showMessageBoxSync(win, o));
  void win.loadURL(APP_INDEX_URL);
  return win;
}

function sendCommand(command: MenuCommand): void {
  (BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0])?.webContents.send(IPC_EVENT_CHANNEL, {
    event: "app.menu",
    payload: { command },
  });
}

if (!app.requestSingleInstanceLock()) app.quit();
else {
  app.on("second-instance", () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on("web-contents-created", (_e, contents) => hardenContents(contents, (url) => void shell.openExternal(url)));

  void app.whenReady().then(() => {
    hardenSession(session.defaultSession);
    protocol.handle(APP_SCHEME, (request) => appProtocolResponse(rendererDir, request.url));
    const h = createHost({
      dataDir: app.getPath("userData"),
      shell: "electron",
      version: __APP_VERSION__,
      dialogs: electronDialogs,
      // npm start in a checkout: an Electron-ABI build of better-sqlite3 beside the Node one
      nativeBinding: process.env.SATPAYLOAD_SQLITE_BINDING || undefined,
    });
    host = h;
    registerHostIpc({
      ipcMain,
      dispatch: h.dispatch,
      events: h.events,
      isTrustedUrl: isAppUrl,
      broadcast: (channel, message) => {
        for (const w of BrowserWindow.getAllWindows()) w.webContents.send(channel, message);
      },
    });
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate({
          command: sendCommand,
          about: () =>
            void dialog.showMessageBox({
              type: "info",
              title: `About ${PRODUCT_NAME}`,
              message: `${PRODUCT_NAME} ${__APP_VERSION__}`,
              detail: `Design, size, cost, bench and ship satellite IoT telemetry payloads.\nElectron ${process.versions.electron} · Node ${process.versions.node}\nData: ${h.info.dataDir}`,
            }),
          openDataDir: () => void shell.openPath(h.info.dataDir),
        }),
      ),
    );
    createWindow();
    app.on("activate", () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  });

  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  app.on("will-quit", (event) => {
    if (!host) return;
    // let the host release serial ports and stop the stack's child processes before the process exits
    event.preventDefault();
    const closing = host;
    host = undefined;
    void closing.close().finally(() => app.quit());
  });
}
