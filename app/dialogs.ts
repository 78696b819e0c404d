// Native open/save dialogs behind the host's Dialogs interface.
import path from "node:path";
import { app, BrowserWindow, dialog, type OpenDialogOptions, type SaveDialogOptions } from "electron";
import type { Dialogs } from "#host/handlers/handlers.ts";
import { reportPdfDialogs } from "./reportPdf.ts";

const filters = [
  { name: "SatPayload layout", extensions: ["json"] },
  { name: "All files", extensions: ["*"] },
];

export const electronDialogs: Dialogs = {
  ...reportPdfDialogs,
  async openLayoutPath() {
    const opts: OpenDialogOptions = { title: "Open layout", properties: ["openFile"], filters };
    const win = BrowserWindow.getFocusedWindow();
    const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
    return r.canceled ? null : (r.filePaths[0] ?? null);
  },
  async saveLayoutPath(suggested) {
    const defaultPath = path.isAbsolute(suggested) ? suggested : path.join(app.getPath("documents"), suggested);
    const opts: SaveDialogOptions = {
      title: "Save layout",
      defaultPath,
      filters,
      properties: ["showOverwriteConfirmation", "createDirectory"],
    };
    const win = BrowserWindow.getFocusedWindow();
    const r = win ? await dialog.showSaveDialog(win, opts) : await dialog.showSaveDialog(opts);
    return r.canceled || !r.filePath ? null : r.filePath;
  },
};
