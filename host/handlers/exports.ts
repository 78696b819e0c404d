// The Export page's host side: runs the codecs' export registry for a project or a posted layout.
import path from "node:path";
import { type Layout, parseLayout } from "#codecs";
import {
  EXPORTERS,
  exportOptionFields,
  ExportOptionError,
  type ExportResult,
  UnknownExporterError,
  zipFiles,
} from "#exporters";
import type { ProjectStore } from "../db/projects.ts";
import { HostError } from "../errors.ts";
import type { HandlerMap, Parsed } from "./dispatch.ts";
import { runExportsWithBatchReadings } from "../exports/batchReadings.ts";
import { ExportFolderError, writeExportFolder } from "../exports/folder.ts";
import { layoutFileName } from "../files/layoutFile.ts";

type ExportsHandlers = Pick<HandlerMap, "exports.list" | "exports.generate" | "exports.saveToFolder" | "exports.zip">;

export function createExportsHandlers({ store }: { store: ProjectStore }): ExportsHandlers {
  const layoutOf = (req: Parsed<"exports.generate">): Layout =>
    parseLayout(req.projectId !== undefined ? store.open(req.projectId).layout : req.layout);
  const run = (req: Parsed<"exports.generate">): { layout: Layout; result: ExportResult } => {
    const layout = layoutOf(req);
    try {
      // a "fit" batch gets its readings per message from planning here (exporters may not import it)
      return { layout, result: runExportsWithBatchReadings(layout, req.exporterIds, req.options).result };
    } catch (e) {
      if (e instanceof UnknownExporterError) throw new HostError("bad_request", e.message);
      // the form shows the reason next to the option it names
      if (e instanceof ExportOptionError)
        throw new HostError("bad_request", e.message, [{ path: `options.${e.option}`, message: e.reason }]);
      throw e;
    }
  };
  return {
    "exports.list": () => {
      const fields = exportOptionFields();
      return EXPORTERS.map((e) => ({
        id: e.id,
        label: e.label,
        description: e.description,
        options: fields.filter((f) => f.exporter === e.id).map(({ exporter: _, ...f }) => f),
      }));
    },
    "exports.generate": (req) => run(req).result,
    "exports.saveToFolder": async (req) => {
      if (!path.isAbsolute(req.path)) throw new HostError("bad_request", `"${req.path}" is not an absolute path`);
      const { result } = run(req);
      try {
        const written = await writeExportFolder(path.resolve(req.path), result.files);
        return { dir: path.resolve(req.path), written: written.length, problems: result.problems };
      } catch (e) {
        if (e instanceof ExportFolderError) throw new HostError("bad_request", e.message);
        throw e;
      }
    },
    "exports.zip": (req) => {
      const { layout, result } = run(req);
      const base = layoutFileName(layout.name).replace(/\.satlayout\.json$/, "");
      const zip = zipFiles(result.files, `${base}-exports/`);
      return {
        fileName: `${base}-exports.zip`,
        base64: Buffer.from(zip).toString("base64"),
        files: result.files.length,
        problems: result.problems,
      };
    },
  };
}
