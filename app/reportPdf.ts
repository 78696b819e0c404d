// The desktop shell's report PDF: the focused window prints the report page it shows, at the CSS page size.
import path from "node:path";
import { app, BrowserWindow, dialog, type SaveDialogOptions } from "electron";
import { HostError } from "#host/errors.ts";
import type { ReportPdfDialogs } from "#host/handlers/report.ts";

export const reportPdfDialogs: Required<ReportPdfDialogs> = {
  async printPdf(pageSize) {
    const win = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
    if (!win) throw new HostError("conflict", "no window is open to print");
    // the page's @page rule sets the same size; printBackground keeps the charts' fills
    const pdf = await win.webContents.printToPDF({ pageSize, printBackground: true, preferCSSPageSize: true });
    return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  },
  async savePdfPath(suggested) {
    const opts: SaveDialogOptions = {
      title: "Save report",
      defaultPath: path.join(app.getPath("documents"), suggested),
      filters: [{ name: "PDF", extensions: ["pdf"] }],
      properties: ["showOverwriteConfirmation", "createDirectory"],
    };
    const win = BrowserWindow.getFocusedWindow();
    const r = win ? await dialog.showSaveDialog(win, opts) : await dialog.showSaveDialog(opts);
    return r.canceled || !r.filePath ? null : r.filePath;
  },
};
