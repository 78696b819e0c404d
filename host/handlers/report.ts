// Handlers of the decide pages: cost scenarios in the project database, and the report PDF (desktop shell).
import path from "node:path";
import type Database from "better-sqlite3";
import type { Res } from "../api/contract.ts";
import type { PageSize } from "../api/report.ts";
import { HostError } from "../errors.ts";
import type { HandlerMap } from "./dispatch.ts";
import { CostStore } from "../report/costStore.ts";
import { writePdfFile } from "../report/pdfFile.ts";

type ReportHandlers = Pick<HandlerMap, "costs.get" | "costs.save" | "report.savePdf" | "report.pdf">;

/** What the desktop shell adds to its dialogs so the host can print the page the user is looking at. */
export interface ReportPdfDialogs {
  /** the focused window's page as PDF bytes (webContents.printToPDF), CSS page size preferred */
  printPdf?(pageSize: PageSize): Promise<Uint8Array>;
  savePdfPath?(suggested: string): Promise<string | null>;
}

/** Prints a self-contained HTML snapshot to PDF bytes (browser mode: host/report/htmlToPdf.ts). */
export type HtmlPrinter = (html: string, pageSize: PageSize) => Promise<Uint8Array>;

export function createReportHandlers({
  info,
  db,
  dialogs,
  printHtml,
}: {
  info: Res<"app.info">;
  db: Database.Database;
  dialogs?: ReportPdfDialogs | undefined;
  printHtml?: HtmlPrinter | undefined;
}): ReportHandlers {
  const costs = new CostStore(db);
  return {
    "costs.get": ({ projectId }) => costs.get(projectId),
    "costs.save": ({ projectId, doc }) => costs.save(projectId, doc),
    "report.savePdf": async ({ pageSize, fileName, path: wanted }) => {
      if (!dialogs?.printPdf)
        throw new HostError(
          "bad_request",
          "printing to PDF needs the desktop app; in the browser the report page's button asks for report.pdf",
        );
      const safeName = fileName.replace(/[/\\:*?"<>|]/g, "-");
      const chosen =
        wanted ??
        (dialogs.savePdfPath
          ? await dialogs.savePdfPath(safeName.toLowerCase().endsWith(".pdf") ? safeName : `${safeName}.pdf`)
          : null);
      if (chosen === null) return null;
      const bytes = await dialogs.printPdf(pageSize);
      const file = await writePdfFile(path.resolve(chosen), bytes);
      return { path: file, bytes: bytes.length };
    },
    "report.pdf": async ({ pageSize, html }) => {
      if (!printHtml) throw new HostError("bad_request", "this shell prints the report with report.savePdf");
      const bytes = await printHtml(html, pageSize);
      return { base64: Buffer.from(bytes).toString("base64"), bytes: bytes.length };
    },
  };
}
