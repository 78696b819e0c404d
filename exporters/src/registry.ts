// Every export by id: the one list the Export page, the CLI and the host iterate. Each export is a
// generator over the layout; runExports gathers their files and reports layouts an export cannot express.
import { type IssueAt, type Layout, LayoutError } from "#codecs";
import { batchExporter } from "./batchExport.ts";
import { cBitpackedExporter } from "./cBitpacked.ts";
import { cSingleHeaderExporter } from "./cSingleHeader.ts";
import { cStructExporter, cStructZlibExporter } from "./cStruct.ts";
import { decoderConfigExporter } from "./decoderConfig.ts";
import { firmwareExporter } from "./firmware.ts";
import { flatbuffersSchemaExporter } from "./flatbuffersSchema.ts";
import { integerKeysExporter } from "./integerKeys.ts";
import { jsonSchemaExporter } from "./jsonSchema.ts";
import { kaitaiExporter } from "./kaitai.ts";
import { nanopbExporter, nanopbNames } from "./nanopb.ts";
import { networkDecodersExporter } from "./networkDecoders.ts";
import { describeOptions, type OptionField, parseOptions } from "./options.ts";
import { generateProto } from "./proto.ts";
import { sbeXmlExporter } from "./sbeXml.ts";
import { schcRulesExporter } from "./schcRules.ts";
import { ExportOptionError, type Exporter, type ExportFile } from "./types.ts";

export type { Exporter, ExportFile } from "./types.ts";

/** The proto3 schema on its own (nanopb adds its .options to the same file name). */
export const protoExporter: Exporter = {
  id: "proto",
  label: "Protocol Buffers (.proto)",
  description:
    "proto3 schema with the layout's package, message, stable field numbers and units/ranges in comments: protoc, Python, Go, Java …",
  generate: (layout) => [{ path: nanopbNames(layout).proto, language: "proto", content: generateProto(layout) }],
};

export const EXPORTERS: readonly Exporter[] = checkOptionNames([
  protoExporter,
  nanopbExporter,
  cStructExporter,
  cStructZlibExporter,
  cBitpackedExporter,
  cSingleHeaderExporter,
  firmwareExporter,
  sbeXmlExporter,
  flatbuffersSchemaExporter,
  kaitaiExporter,
  networkDecodersExporter,
  batchExporter,
  jsonSchemaExporter,
  decoderConfigExporter,
  schcRulesExporter,
  integerKeysExporter,
]);

/** The options of every export, as a form and a CLI see them; `exporter` says whose. */
export function exportOptionFields(): Array<OptionField & { exporter: string }> {
  return EXPORTERS.flatMap((e) => (e.options ? describeOptions(e.options) : []).map((f) => ({ ...f, exporter: e.id })));
}

/**
 * Options travel as one object for all exports (the Export page, the host API and the CLI flags all
 * speak of "the device key", not of the decoder config's device key), so no two exports may declare
 * the same key or flag: a programming error, refused when the module loads.
 */
function checkOptionNames(list: Exporter[]): readonly Exporter[] {
  const owner = new Map<string, string>();
  for (const e of list)
    for (const f of e.options ? describeOptions(e.options) : [])
      for (const name of [f.key, `--${f.flag}`]) {
        const other = owner.get(name);
        if (other !== undefined) throw new Error(`exports "${other}" and "${e.id}" both declare the option ${name}`);
        owner.set(name, e.id);
      }
  return list;
}

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
 * Runs the chosen exports (all when `ids` is empty) with their options, each parsed by its export's
 * schema: a bad value, or a key no export declares, throws ExportOptionError before anything runs.
 * Options of exports not chosen are not read (the Export page sends them all). A file two exports both
 * write (the .proto of "proto" and "nanopb") appears once; two different files at one path are a bug and throw.
 */
export function runExports(
  layout: Layout,
  ids: readonly string[] = [],
  options: Record<string, unknown> = {},
): ExportResult {
  const chosen = ids.length ? ids.map((id) => exporterById(id) ?? unknownExporter(id)) : [...EXPORTERS];
  const known = new Set(exportOptionFields().map((f) => f.key));
  for (const key of Object.keys(options))
    if (!known.has(key))
      throw new ExportOptionError(key, `is not an option of any export (options: ${[...known].join(", ")})`);
  const parsed = new Map(chosen.map((ex) => [ex, ex.options ? parseOptions(ex.options, options) : {}]));
  const files: ExportResult["files"] = [];
  const problems: ExportProblem[] = [];
  const byPath = new Map<string, string>();
  for (const ex of chosen) {
    let out: ExportFile[];
    try {
      out = ex.generate(layout, parsed.get(ex)!);
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
