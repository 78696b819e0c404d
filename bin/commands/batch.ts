// `satpayload batch`: many readings per message (issue 27). Sizes a layout's batches per format,
// cuts a device's log of readings into messages (N readings each, the last one partly filled) and
// reads messages back into readings, for piping into devices, portals and the decoder's batch routes.
import {
  BATCH_FORMS,
  batchCodecFor,
  type BatchForm,
  type BatchRecord,
  codecFor,
  detectLogFormat,
  EncodeError,
  type FormatId,
  generateBatches,
  batchesFromLog,
  importLog,
  type Layout,
  readingsThatFit,
  toPlain,
  type TypedRecord,
} from "#codecs";
import { BatchPlanError, readingsPerMessage } from "#planning";
import {
  InputError,
  intFlag,
  LAYOUT_FLAGS,
  loadLayout,
  parseFlags,
  parseFormat,
  parseFormats,
  readStdin,
  readText,
  resolvePlatform,
  table,
  UsageError,
  write,
} from "./common.ts";
import { hexToBytes } from "./hex.ts";
import { isPlainRecord, parseJsonLenient, stringifyJson } from "./jsonio.ts";
import { DEFAULT_SEED, readJsonlLines, recordFromJson } from "./records.ts";

export const BATCH_SIZES_SCHEMA = "satpayload.batch-sizes/1";

export const batchHelp = `satpayload batch sizes --layout FILE | --preset ID [--format all|NAME...] [--form columns|delta]
                       [--readings N|fit] [--platform ID|FILE.json] [--messages M --seed S] [--json]
  Per format: readings per message, bytes of the largest of M generated messages (default 100) and
  bytes per reading, against one reading per message; whether the messages fit the platform.
satpayload batch encode --layout FILE | --preset ID --format NAME [--form columns|delta]
                        [--readings N|fit] [--platform ID] --records FILE.jsonl|FILE.json|FILE.csv
  Reads readings (records of the layout: one JSON object a line, a JSON array, or a CSV log with a
  header of field keys, e.g. gps.lat or acc[0]; any problem of a CSV log is printed with its
  file:line and nothing is written), cuts them in
  order into messages of N readings (the last one may hold fewer), each taking its once-fields from
  its first reading, and writes one hex message a line. A once-field whose value changes inside a
  message, or a message that cannot be encoded, stops it before anything is written, naming the lines.
satpayload batch decode --layout FILE | --preset ID --format NAME [--form columns|delta]
                        [--readings N|fit] [--platform ID]
  Reads hex messages from stdin, one a line, and prints every reading as one line of JSON (its
  message's once-fields with the reading), in order.
  --form defaults to delta; --readings to the layout's batch (its count, or as many as fit its
  platform); "fit" measures for --platform (default: the layout's). Encode and decode must be given
  the same --format, --form and --readings: the count can shape the wire.
`;

const BATCH_FLAGS = {
  ...LAYOUT_FLAGS,
  form: { type: "string" },
  readings: { type: "string" },
  platform: { type: "string" },
} as const;

function parseForm(v: string | undefined): BatchForm {
  if (v === undefined) return "delta";
  if (!(BATCH_FORMS as readonly string[]).includes(v))
    throw new UsageError(`--form must be ${BATCH_FORMS.join(" or ")}, not "${v}"`);
  return v as BatchForm;
}

function batchLayout(flags: Parameters<typeof loadLayout>[0]): Layout {
  const { layout } = loadLayout(flags);
  if (!layout.batch)
    throw new InputError(
      `layout "${layout.name}" declares no batch: say which fields repeat per reading (its "batch", see docs/cli.md)`,
    );
  return layout;
}

/** --readings N, "fit" (for --platform or the layout's platform), or the layout's own answer */
export function resolveReadings(
  layout: Layout,
  format: FormatId,
  form: BatchForm,
  readings: string | undefined,
  platform: string | undefined,
): number {
  if (readings !== undefined && readings !== "fit") return intFlag(readings, "--readings", undefined, 1, 65_535);
  if (readings === undefined)
    try {
      return readingsPerMessage(layout, format, form);
    } catch (e) {
      if (e instanceof BatchPlanError) throw new InputError(e.message);
      throw e;
    }
  const named = platform ?? (layout.batch?.readings.kind === "fit" ? layout.batch.readings.platform : undefined);
  if (named === undefined) throw new UsageError("--readings fit needs --platform (the layout names none)");
  const p = resolvePlatform(named);
  if (p.uplinkBytes === undefined) throw new UsageError(`${p.name} sets no message size limit: give --readings N`);
  const n = readingsThatFit(layout, format, form, p.uplinkBytes);
  if (n < 1)
    throw new InputError(`not even one reading fits ${p.name}'s ${p.uplinkBytes} bytes in ${format} (${form})`);
  return n;
}

/**
 * Messages of `n` readings in order, the last partly filled, cut the way the designer cuts a log
 * (batchesFromLog: once-fields from each message's first reading). A once-field that changes inside a
 * message cannot travel (the message carries one value): all or nothing, every such reading is named.
 */
function cutIntoMessages(layout: Layout, records: TypedRecord[], where: string[], n: number): BatchRecord[] {
  const positions = records.map((_, i) => i + 1);
  const { batches, problems } = batchesFromLog(layout, records, positions, n);
  if (problems.length > 0) {
    const listed = problems.map((p) => `${where[p.line - 1]}, ${p.field}: ${p.message}`);
    throw new InputError(
      `${problems.length} reading${problems.length === 1 ? "" : "s"} change a field sent once per message, nothing encoded:\n${listed.join("\n")}`,
    );
  }
  return batches;
}

/**
 * A CSV log (a header of field keys, see docs/design/log-import.md) through the same import the designer
 * and the bench use. All or nothing: every problem is printed with its file:line and nothing is encoded,
 * because a message cut from a log with a line left out would silently carry other readings.
 */
function readCsvLog(layout: Layout, file: string, text: string): { records: TypedRecord[]; where: string[] } {
  const log = importLog(layout, text, "csv");
  if (log.problems.length > 0) {
    const listed = log.problems.map((p) => `${file}:${p.line}${p.field ? `, ${p.field}` : ""}: ${p.message}`);
    const more = log.problemsNotListed > 0 ? [`… and ${log.problemsNotListed} more problems`] : [];
    const count = log.problems.length + log.problemsNotListed;
    throw new InputError(
      `${file}: ${count} problem${count === 1 ? "" : "s"} in the log, nothing encoded:\n${[...listed, ...more].join("\n")}`,
    );
  }
  return { records: log.records, where: log.lines.map((l) => `${file}:${l}`) };
}

function readReadings(layout: Layout, file: string): { records: TypedRecord[]; where: string[] } {
  const lower = file.toLowerCase();
  // by extension first; a file named otherwise is a CSV when its text does not start with a JSON object
  if (lower.endsWith(".csv")) return readCsvLog(layout, file, readText(file));
  if (!lower.endsWith(".json") && !lower.endsWith(".jsonl")) {
    const text = readText(file);
    if (detectLogFormat(text) === "csv") return readCsvLog(layout, file, text);
  }
  if (!lower.endsWith(".json")) {
    const { records, lines } = readJsonlLines(layout, file);
    return { records, where: lines.map((l) => `${file}:${l}`) };
  }
  let doc: unknown;
  try {
    doc = parseJsonLenient(readText(file));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${file}: not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(doc)) throw new InputError(`${file}: expected a JSON array of readings`);
  if (doc.length === 0) throw new InputError(`${file}: no readings`);
  const where = doc.map((_, i) => `${file}[${i}]`);
  const records = doc.map((el: unknown, i) => {
    if (!isPlainRecord(el)) throw new InputError(`${where[i]}: expected a JSON object`);
    return recordFromJson(layout, stringifyJson(el), where[i]!);
  });
  return { records, where };
}

async function encode(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, { ...BATCH_FLAGS, format: { type: "string" }, records: { type: "string" } });
  if (flags.records === undefined) throw new UsageError("--records FILE is required: the readings to send");
  const layout = batchLayout(flags);
  const format = parseFormat(flags.format);
  const form = parseForm(flags.form);
  const n = resolveReadings(layout, format, form, flags.readings, flags.platform);
  const codec = batchCodecFor(layout, format, form, n);
  const { records, where } = readReadings(layout, flags.records);
  // all or nothing: line k of the output is always message k
  const hex = cutIntoMessages(layout, records, where, n).map((b, m) => {
    try {
      return Buffer.from(codec.encode(b)).toString("hex");
    } catch (e) {
      if (e instanceof EncodeError) {
        const first = where[m * n]!;
        const last = where[Math.min(records.length, (m + 1) * n) - 1]!;
        throw new InputError(`message ${m + 1} (readings ${first} … ${last}): ${e.message}`);
      }
      throw e;
    }
  });
  write(`${hex.join("\n")}\n`);
}

async function decode(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, { ...BATCH_FLAGS, format: { type: "string" } });
  const layout = batchLayout(flags);
  const format = parseFormat(flags.format);
  const form = parseForm(flags.form);
  const codec = batchCodecFor(
    layout,
    format,
    form,
    resolveReadings(layout, format, form, flags.readings, flags.platform),
  );
  const lines = (await readStdin())
    .toString("utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  if (lines.length === 0) throw new UsageError("no messages on stdin: one hex message a line");
  const out: string[] = [];
  lines.forEach((line, i) => {
    let b: BatchRecord;
    try {
      b = codec.decode(hexToBytes(line));
    } catch (e) {
      if (e instanceof Error) e.message = `stdin line ${i + 1}: ${e.message}`;
      throw e;
    }
    for (const r of b.readings) out.push(stringifyJson(toPlain(layout, { ...b.once, ...r }, "json")));
  });
  write(`${out.join("\n")}\n`);
}

interface BatchSizeRow {
  format: FormatId;
  form: BatchForm;
  readingsPerMessage: number;
  maxMessageBytes: number;
  bytesPerReading: number;
  singleReadingBytes: number;
  fits: boolean | null;
}

async function sizes(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    ...BATCH_FLAGS,
    format: { type: "string", multiple: true },
    messages: { type: "string" },
    seed: { type: "string" },
    json: { type: "boolean", default: false },
  });
  const layout = batchLayout(flags);
  const form = parseForm(flags.form);
  const formats = parseFormats(flags.format);
  const messages = intFlag(flags.messages, "--messages", 100, 1, 100_000);
  const seed = intFlag(flags.seed, "--seed", DEFAULT_SEED, 0, 0xffffffff);
  const platformId =
    flags.platform ?? (layout.batch!.readings.kind === "fit" ? layout.batch!.readings.platform : undefined);
  const limit = platformId !== undefined ? resolvePlatform(platformId).uplinkBytes : undefined;
  const rows: BatchSizeRow[] = formats.map((format) => {
    const n = resolveReadings(layout, format, form, flags.readings, flags.platform);
    const codec = batchCodecFor(layout, format, form, n);
    const batches = generateBatches(layout, messages, n, seed);
    const bytes = batches.map((b) => codec.encode(b).length);
    const readings = batches.reduce((s, b) => s + b.readings.length, 0);
    // the same readings one per message: the once-fields travel with every reading
    const single = codecFor(layout, format);
    const singles = batches.flatMap((b) => b.readings.map((r) => single.encode({ ...b.once, ...r }).length));
    const max = Math.max(...bytes);
    return {
      format,
      form,
      readingsPerMessage: n,
      maxMessageBytes: max,
      bytesPerReading: bytes.reduce((s, x) => s + x, 0) / readings,
      singleReadingBytes: singles.reduce((s, x) => s + x, 0) / singles.length,
      fits: limit === undefined ? null : max <= limit,
    };
  });
  if (flags.json) {
    write(
      `${JSON.stringify({ schema: BATCH_SIZES_SCHEMA, layout: layout.name, messages, seed, platform: platformId ?? null, limitBytes: limit ?? null, rows })}\n`,
    );
    return;
  }
  const header = [
    "format",
    "form",
    "readings/msg",
    "max msg B",
    "B/reading",
    "1 per msg B",
    ...(limit === undefined ? [] : [`fits ${limit} B`]),
  ];
  write(
    table(
      header,
      rows.map((r) => [
        r.format,
        r.form,
        String(r.readingsPerMessage),
        String(r.maxMessageBytes),
        r.bytesPerReading.toFixed(1),
        r.singleReadingBytes.toFixed(1),
        ...(r.fits === null ? [] : [r.fits ? "yes" : "no"]),
      ]),
      2,
    ),
  );
}

export async function batchCommand(argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action === "sizes") return sizes(rest);
  if (action === "encode") return encode(rest);
  if (action === "decode") return decode(rest);
  throw new UsageError(`satpayload batch ${action ?? ""}: expected sizes, encode or decode`);
}
