// HostApi methods of the decide pages: a project's cost scenarios, and the report PDF (both shells).
import { z } from "zod";
import { costDocSchema } from "#planning";

const id = z.string().min(1).max(64);
export const PAGE_SIZES = ["A4", "Letter"] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
/** a report snapshot is a few hundred KB; the transport's body limit is 16 MiB */
export const MAX_REPORT_HTML = 12 * 1024 * 1024;

export const reportMethods = {
  /** the project's cost scenarios; a fresh default set (updatedAt null) when none were saved yet */
  "costs.get": {
    req: z.object({ projectId: id }),
    res: z.object({ doc: costDocSchema, updatedAt: z.string().nullable() }),
  },
  /** replaces the project's cost scenarios; refused with the problems listed when the document is invalid */
  "costs.save": { req: z.object({ projectId: id, doc: z.unknown() }), res: z.object({ updatedAt: z.string() }) },
  /**
   * Electron only: prints the report page the focused window shows (webContents.printToPDF) and writes it where
   * the user chooses (or to `path`). Browser mode prints the same page with the browser's own print dialog.
   */
  "report.savePdf": {
    req: z.object({
      pageSize: z.enum(PAGE_SIZES),
      fileName: z.string().min(1).max(200),
      path: z.string().max(4096).optional(),
    }),
    res: z.object({ path: z.string(), bytes: z.number().int() }).nullable(),
  },
  /**
   * The report page's HTML snapshot (styles inlined, charts as inline SVG) printed to PDF on the host with a
   * headless Chromium, returned base64 for a download: how browser mode saves the report.
   */
  "report.pdf": {
    req: z.object({ pageSize: z.enum(PAGE_SIZES), html: z.string().min(1).max(MAX_REPORT_HTML) }),
    res: z.object({ base64: z.string(), bytes: z.number().int() }),
  },
} as const;
