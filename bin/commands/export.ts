// `satpayload export`: the layout's code and schema exports (.proto, nanopb, C packers, SBE XML,
// Kaitai, network-server decoders, JSON Schema, decoder-service config) into a folder or a zip.
import path from "node:path";
import { EXPORTERS, ExportOptionError, UnknownExporterError, zipFiles } from "#exporters";
import { runExportsWithBatchReadings } from "#host/exports/batchReadings.ts";
import { ExportFolderError, writeExportFile, writeExportFolder } from "#host/exports/folder.ts";
import { commaList, InputError, LAYOUT_FLAGS, loadLayout, parseFlags, table, UsageError, write } from "./common.ts";
import {
  exportOptionFlags,
  exportOptionsHelp,
  optionFlagError,
  optionsFromFlags,
  unusedOptionFlags,
} from "./exportOptions.ts";

export const EXPORT_SCHEMA = "satpayload.export/1";

export const exportHelp = `satpayload export --layout FILE | --preset ID (--out DIR | --zip FILE) [--only ID...] [--json]
                  [export options]
  Writes the layout's exports (all, or the --only ones) into DIR or one zip file. Exports:
${EXPORTERS.map((e) => `    ${e.id.padEnd(18)} ${e.label}`).join("\n")}
  An export the layout cannot be expressed in is reported on stderr; with --only it is an error (exit 1).
  Export options (a list takes commas or a repeated flag; a bad value is a usage error, exit 2):
${exportOptionsHelp()}
`;

export async function exportCommand(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    ...LAYOUT_FLAGS,
    out: { type: "string" },
    zip: { type: "string" },
    only: { type: "string", multiple: true },
    json: { type: "boolean", default: false },
    ...exportOptionFlags(),
  });
  if ((flags.out === undefined) === (flags.zip === undefined))
    throw new UsageError("give exactly one of --out DIR or --zip FILE");
  const { layout } = loadLayout(flags);
  const ids = commaList(flags.only);
  const options = optionsFromFlags(flags);
  let run;
  try {
    // a "fit" batch gets its readings per message from planning here (exporters may not import it)
    run = runExportsWithBatchReadings(layout, ids, options);
  } catch (e) {
    if (e instanceof UnknownExporterError) throw new UsageError(e.message);
    if (e instanceof ExportOptionError) throw optionFlagError(e);
    throw e;
  }
  const { result, choice, unresolved } = run;
  if (choice) process.stderr.write(`satpayload: batch: ${choice.note}\n`);
  if (unresolved) process.stderr.write(`satpayload: batch: readings per message not worked out: ${unresolved}\n`);
  for (const note of unusedOptionFlags(options, ids)) process.stderr.write(`satpayload: ${note}\n`);
  for (const p of result.problems)
    process.stderr.write(`satpayload: ${ids.length ? "" : "skipped "}${p.exporter}: ${p.message}\n`);
  let where: string;
  try {
    if (flags.zip !== undefined) {
      where = path.resolve(flags.zip);
      const base = path.basename(where).replace(/\.zip$/i, "");
      await writeExportFile(where, zipFiles(result.files, `${base}/`));
    } else {
      where = path.resolve(flags.out!);
      await writeExportFolder(where, result.files);
    }
  } catch (e) {
    if (e instanceof ExportFolderError) throw new InputError(e.message);
    throw e;
  }
  if (flags.json) {
    write(
      `${JSON.stringify({ schema: EXPORT_SCHEMA, [flags.zip !== undefined ? "zip" : "out"]: where, files: result.files.map((f) => ({ path: f.path, exporter: f.exporter, bytes: Buffer.byteLength(f.content) })), problems: result.problems, batchReadings: choice && { platform: choice.platform, forms: choice.forms, note: choice.note } }, null, 2)}\n`,
    );
  } else {
    write(
      table(
        ["file", "export", "bytes"],
        result.files.map((f) => [f.path, f.exporter, String(Buffer.byteLength(f.content))]),
        2,
      ),
    );
    write(`${result.files.length} files → ${where}\n`);
  }
  if (ids.length && result.problems.length)
    throw new InputError(`${result.problems.length} export${result.problems.length > 1 ? "s" : ""} failed (see above)`);
}
