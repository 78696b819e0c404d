// Every export by id: the one list the Export page, the CLI and the host iterate. Each export is a
// generator over the layout; runExports gathers their files and reports layouts an export cannot express.
import { type IssueAt, type Layout, LayoutError } from "#codecs";
import { cBitpackedExporter } from "./cBitpacked.ts";
import { cStructExporter, cStructZlibExporter } from "./cStruct.ts";
import { decoderConfigExporter } from "./decoderConfig.ts";
import { firmwareExporter } from "./firmware.ts";
import { jsonSchemaExporter } from "./jsonSchema.ts";
import { kaitaiExporter } from "./kaitai.ts";
import { nanopbExporter, nanopbNames } from "./nanopb.ts";
import { networkDecodersExporter } from "./networkDecoders.ts";
import { generateProto } from "./proto.ts";
import { sbeXmlExporter } from "./sbeXml.ts";
import type { Exporter, ExportFile } from "./types.ts";

export type { Exporter, ExportFile } from "./types.ts";

/** The proto3 schema on its own (nanopb adds its .options to the same file name). */
export const protoExporter: Exporter = {
  id: "proto",
  label: "Protocol Buffers (.proto)",
  description:
    "proto3 schema with the layout's package, message, stable field numbers and units/ranges in comments: protoc, Python, Go, Java …",
  generate: (layout) => [{ path: nanopbNames(layout).proto, language: "proto", content: generateProto(layout) }],
};

export const EXPORTERS: readonly Exporter[] = [
  protoExporter,
  nanopbExporter,
  cStructExporter,
  cStructZlibExporter,
  cBitpackedExporter,
  firmwareExporter,
  sbeXmlExporter,
  kaitaiExporter,
  networkDecodersExporter,
  jsonSchemaExporter,
  decoderConfigExporter,
];

export function exporterById(id: string): Exporter | undefined {
  return EXPORTERS.find((e) => e.id === id);
}

export interface ExportProblem {
  exporter: string;
  message: string;
  issues: IssueAt[];
}

export interface ExportResult {
  files: Array<ExportFile & { exporter: string }>;
  /** exports the layout cannot be expressed in, with the layout paths that stop them */
  problems: ExportProblem[];
}

export class UnknownExporterError extends Error {
  override readonly name = "UnknownExporterError";
}

/**
 * Runs the chosen exports (all when `ids` is empty). A file two exports both write (the .proto of
 * "proto" and "nanopb") appears once; two different files at one path are a bug and throw.
 */
export function runExports(
  layout: Layout,
  ids: readonly string[] = [],
  options: Record<string, unknown> = {},
): ExportResult {
  const chosen = ids.length ? ids.map((id) => exporterById(id) ?? unknownExporter(id)) : [...EXPORTERS];
  const files: ExportResult["files"] = [];
  const problems: ExportProblem[] = [];
  const byPath = new Map<string, string>();
  for (const ex of chosen) {
    let out: ExportFile[];
    try {
      out = ex.generate(layout, options);
    } catch (e) {
      if (!(e instanceof LayoutError)) throw e;
      problems.push({ exporter: ex.id, message: e.message, issues: e.issues });
      continue;
    }
    for (const f of out) {
      const seen = byPath.get(f.path);
      if (seen === f.content) continue;
      if (seen !== undefined)
        throw new Error(`exports "${ex.id}" and another both write ${f.path} with different content`);
      byPath.set(f.path, f.content);
      files.push({ ...f, exporter: ex.id });
    }
  }
  return { files, problems };
}

function unknownExporter(id: string): never {
  throw new UnknownExporterError(`unknown export "${id}" (exports: ${EXPORTERS.map((e) => e.id).join(", ")})`);
}
