// Readings per message for the `batch` export of a layout whose batch is "as many as fit <platform>"
// (issue #27). The count depends on the format and form and is measured by planning, which exporters
// may not import (layers.md), so it is worked out here, where an export is started (the CLI's
// `export`, the host's exports.* methods behind the Export page), and passed in as `batchReadings`.
//
// One count per form, the batch export run once per form: a form's files are its own (paths and C
// names carry the form), but within a form the bit-packed and the Struct code share one wire (the
// `<Message><Form>Wire` types, the .proto), so two counts there would give two wires under one name.
// The fewer of the two formats' counts is the one with which both formats' messages fit the platform;
// the note says what each format alone would take, so a user who ships one format can export it with
// its own count (`--batch-readings N`).
import { BATCH_FORMS, type BatchForm, type Layout } from "#codecs";
import { type ExportFile, type ExportResult, runExports } from "#exporters";
import { BatchPlanError, readingsPerMessage } from "#planning";

/** the formats the batch export writes code for (C, Kaitai, network decoders) */
export const BATCH_EXPORT_FORMATS = ["bitpacked", "struct"] as const;
type ExportFormat = (typeof BATCH_EXPORT_FORMATS)[number];

export interface BatchReadingsChoice {
  platform: string;
  /** per form written: the count passed in, and what each format alone fits */
  forms: Array<{ form: BatchForm; readings: number; perFormat: Array<{ format: ExportFormat; readings: number }> }>;
  /** one paragraph: the counts used and why */
  note: string;
}

export type BatchReadingsResolution =
  | { kind: "none" } // nothing to work out: no batch export, no "fit" batch, or the option is given
  | { kind: "resolved"; choice: BatchReadingsChoice }
  | { kind: "failed"; reason: string };

const FORMAT_NAMES: Record<ExportFormat, string> = { bitpacked: "bit-packed", struct: "Struct" };

function formsOf(options: Record<string, unknown>): BatchForm[] {
  const given = options.batchForms;
  // a value the schema will refuse is left to runExports, which names the option
  if (!Array.isArray(given) || given.length === 0) return [...BATCH_FORMS];
  const forms = BATCH_FORMS.filter((f) => given.includes(f));
  return forms.length ? forms : [...BATCH_FORMS];
}

/**
 * The counts of a batch export on a "fit" layout whose option is not given; `failed` when planning
 * cannot answer (a platform without a size limit, a format that fits not even one reading): the export
 * then reports its own problem at batch.readings.
 */
export function resolveBatchReadings(
  layout: Layout,
  exporterIds: readonly string[],
  options: Record<string, unknown>,
): BatchReadingsResolution {
  const batch = layout.batch;
  if (!batch || batch.readings.kind !== "fit") return { kind: "none" };
  if (exporterIds.length > 0 && !exporterIds.includes("batch")) return { kind: "none" };
  if (options.batchReadings !== undefined) return { kind: "none" };
  const platform = batch.readings.platform;
  let forms: BatchReadingsChoice["forms"];
  try {
    forms = formsOf(options).map((form) => {
      const perFormat = BATCH_EXPORT_FORMATS.map((format) => ({
        format,
        readings: readingsPerMessage(layout, format, form),
      }));
      return { form, readings: Math.min(...perFormat.map((p) => p.readings)), perFormat };
    });
  } catch (e) {
    if (e instanceof BatchPlanError) return { kind: "failed", reason: e.message };
    throw e;
  }
  const each = forms
    .map(
      (f) =>
        `${f.form} form ${f.readings} (${f.perFormat.map((p) => `${FORMAT_NAMES[p.format]} alone ${p.readings}`).join(", ")})`,
    )
    .join("; ");
  const note =
    `readings per message as many as fit ${platform}: ${each}. Within a form the bit-packed and the Struct ` +
    `code share one wire, so each form uses the fewer, with which both formats' messages fit. To ship one ` +
    `format with its own count, export that form with --batch-forms and --batch-readings N (Readings per ` +
    `message on the Export page).`;
  return { kind: "resolved", choice: { platform, forms, note } };
}

/** The note as a file beside the batch files, so the counts travel with the export (zip or folder). */
export function batchReadingsFile(layout: Layout, choice: BatchReadingsChoice): ExportFile {
  const rows = choice.forms.flatMap((f) =>
    f.perFormat.map((p) => `| ${f.form} | ${FORMAT_NAMES[p.format]} | ${p.readings} | ${f.readings} |`),
  );
  return {
    path: "batch/READINGS.md",
    language: "md",
    content: [
      `# ${layout.name}: readings per message`,
      "",
      `The ${choice.note}`,
      "",
      `| form | format | fits ${choice.platform} alone | exported with |`,
      "|---|---|---|---|",
      ...rows,
      "",
    ].join("\n"),
  };
}

/**
 * runExports with the batch export's readings per message worked out for a "fit" layout: the other
 * exports run once, the batch export once per form with that form's count, and batch/READINGS.md says
 * which counts and why. `choice` is null when nothing was worked out; `unresolved` says why planning
 * could not answer (the batch export's own problem then stands).
 */
export function runExportsWithBatchReadings(
  layout: Layout,
  exporterIds: readonly string[],
  options: Record<string, unknown>,
): { result: ExportResult; choice: BatchReadingsChoice | null; unresolved: string | null } {
  const r = resolveBatchReadings(layout, exporterIds, options);
  if (r.kind !== "resolved")
    return {
      result: runExports(layout, exporterIds, options),
      choice: null,
      unresolved: r.kind === "failed" ? r.reason : null,
    };
  const [first, ...rest] = r.choice.forms;
  const result = runExports(layout, exporterIds, {
    ...options,
    batchForms: [first!.form],
    batchReadings: first!.readings,
  });
  const byPath = new Map(result.files.map((f) => [f.path, f.content]));
  for (const f of rest) {
    const more = runExports(layout, ["batch"], { ...options, batchForms: [f.form], batchReadings: f.readings });
    result.problems.push(...more.problems);
    for (const file of more.files) {
      const seen = byPath.get(file.path);
      if (seen === file.content) continue; // the runtime and the reading/once types: the same for every form
      if (seen !== undefined) throw new Error(`the batch export's ${f.form} form rewrites ${file.path} differently`);
      byPath.set(file.path, file.content);
      result.files.push(file);
    }
  }
  if (result.files.some((f) => f.exporter === "batch"))
    result.files.push({ ...batchReadingsFile(layout, r.choice), exporter: "batch" });
  return { result, choice: r.choice, unresolved: null };
}
