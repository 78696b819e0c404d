// `npm run bench:batch`: bytes per reading when many readings share a message (issue #27), for the
// paper's tracker, the bundled presets and a public GPS track nobody here generated, in every format,
// columns and delta form, against one reading per message and against SenML (RFC 8428) in CBOR.
// Writes its section of docs/benchmarks.md. Sizes only: nothing here is timed.
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  batchCodecFor,
  batchesFromLog,
  type BatchForm,
  type BatchRecord,
  codecFor,
  EncodeError,
  type Field,
  FORMAT_IDS,
  FORMAT_LABELS,
  type FormatId,
  generateBatches,
  generateSamples,
  importLog,
  type Layout,
  type LayoutInput,
  parseLayout,
  PRESETS,
  type TypedRecord,
} from "#codecs";
import { gpsTrackBatchInput } from "#codecs-test/fixtures/gpsTrack.ts";
import { platformById } from "#planning";
import { machineLine, writeDocSection } from "#services/shared/docSection.ts";
import { senmlCbor, senmlJson, senmlPack } from "./batch/senml.ts";

const MARK = "<!-- bench:batch -->";
const ROOT = path.resolve(import.meta.dirname, "..");
const WRITE = !process.argv.includes("--no-write");
const PLATFORM = "astrocast";
const LIMIT = platformById(PLATFORM)!.uplinkBytes!;
/** generated subjects: this many messages of each size are measured (cut from one series per seed) */
const MESSAGES = 40;
const SEED = 1;
const MAX_READINGS = 255;
const FORMS: readonly BatchForm[] = ["columns", "delta"];
/** the issue's goal: the delta form at least this much smaller than SenML CBOR of the same readings */
const GOAL = 0.95;

interface Subject {
  name: string;
  /** the layout for messages of n readings (the GPS track declares its interval per message size) */
  layout(n: number): Layout;
  /** readings cut into messages of n; undefined when n readings do not make one message */
  batches(n: number): BatchRecord[];
  /** the same readings as whole records, one per message */
  records(): TypedRecord[];
  source: string;
}

/** A preset without a batch gets one: its numeric top-level fields per reading, every 15 minutes. */
function withBatch(input: LayoutInput): LayoutInput {
  if (input.batch) return input;
  const fields = input.fields as Field[];
  const numeric = fields.filter(
    (f) => f.presence !== "optional" && ["int", "float", "fixed", "timestamp"].includes(f.type.kind),
  );
  const time = numeric.find((f) => f.type.kind === "timestamp" && f.type.encoding === "epoch");
  return {
    ...input,
    batch: {
      perReading: numeric.map((f) => ({ field: f.id })),
      intervalSeconds: 900,
      readings: { kind: "fit", platform: PLATFORM },
      ...(time ? { time: time.id } : {}),
    },
  };
}

function generated(id: string, input: LayoutInput, note: string): Subject {
  const layout = parseLayout(withBatch(input));
  return {
    name: id,
    layout: () => layout,
    batches: (n) => generateBatches(layout, MESSAGES, n, SEED),
    records: () => generateSamples(layout, MESSAGES, SEED),
    source: note,
  };
}

/**
 * The public GPS track, read by the log import. Its points are 1–894 s apart, and the delta form's time
 * offsets may span at most twice the interval per reading of a message: for each message size the
 * interval declared is the smallest that holds the sparsest message (batch-wire.md), and each maxRate
 * covers the largest real change between two points (a promise the real data keeps).
 */
function dataset(): Subject {
  const csv = readFileSync(path.join(ROOT, "codecs/test/fixtures/data/cerknicko-jezero.csv"), "utf8");
  const log = importLog(parseLayout(gpsTrackBatchInput), csv);
  if (log.problems.length > 0) throw new Error(`the GPS track does not import: ${JSON.stringify(log.problems[0])}`);
  const points = log.records as { time: number; lat: number; lon: number; ele: number }[];
  const steps = points.slice(1).map((p, i) => ({ p, q: points[i]! }));
  const gap = Math.max(...steps.map(({ p, q }) => p.time - q.time));
  const largest = (k: "lat" | "lon" | "ele") => Math.max(...steps.map(({ p, q }) => Math.abs(p[k] - q[k])));
  const layouts = new Map<number, Layout>();
  const layoutFor = (n: number): Layout => {
    let layout = layouts.get(n);
    if (layout) return layout;
    let interval = Math.ceil(gap / 2);
    if (n > 1) {
      let span = 0;
      for (let i = 0; i < points.length; i += n) {
        const chunk = points.slice(i, i + n);
        if (chunk.length > 1) span = Math.max(span, (chunk.at(-1)!.time - chunk[0]!.time) / (2 * (chunk.length - 1)));
      }
      interval = Math.max(1, Math.ceil(span));
    }
    layout = parseLayout({
      ...gpsTrackBatchInput,
      batch: {
        ...gpsTrackBatchInput.batch!,
        intervalSeconds: interval,
        perReading: [
          { field: "time" },
          { field: "lat", maxRate: largest("lat") / interval },
          { field: "lon", maxRate: largest("lon") / interval },
          { field: "ele", maxRate: largest("ele") / interval },
        ],
      },
    });
    layouts.set(n, layout);
    return layout;
  };
  return {
    name: "gps-track",
    layout: layoutFor,
    batches: (n) => {
      if (n > log.records.length) return [];
      const cut = batchesFromLog(layoutFor(n), log.records, log.lines, n);
      if (cut.problems.length > 0) throw new Error(JSON.stringify(cut.problems[0]));
      return cut.batches;
    },
    records: () => log.records,
    source:
      `${log.records.length} real points (time, lat, lon, elevation) of codecs/test/fixtures/data/cerknicko-jezero.csv ` +
      `(gpxpy 1.6.2 test data, Apache-2.0), read by the log import. The points are 1–${gap} s apart (median 8 s): ` +
      "the delta form's time offsets may span twice the interval per reading of a message, so for each message " +
      "size the batch declares the smallest interval that holds the sparsest message of that size, and maxRates " +
      "that cover the largest real change between two points.",
  };
}

interface Cell {
  /** readings per message at the best fit (0: not even one fits or the form refused the readings) */
  readings: number;
  bytesPerReading: number;
  /** mean bytes per message at that size */
  bytesPerMessage: number;
  note?: string;
}

function encodeAll(layout: Layout, format: FormatId, form: BatchForm, batches: BatchRecord[], n: number): number[] {
  const codec = batchCodecFor(layout, format, form, n);
  return batches.map((b) => codec.encode(b).length);
}

/** The most readings per message for which every message of the subject fits LIMIT, with its sizes. */
function bestFit(s: Subject, format: FormatId, form: BatchForm): Cell {
  let best: Cell = { readings: 0, bytesPerReading: Number.NaN, bytesPerMessage: Number.NaN };
  for (let n = 1; n <= MAX_READINGS; n++) {
    const batches = s.batches(n);
    if (batches.length === 0) break;
    let sizes: number[];
    try {
      sizes = encodeAll(s.layout(n), format, form, batches, n);
    } catch (e) {
      if (!(e instanceof EncodeError)) throw e;
      return n === 1 ? { ...best, note: e.message } : best;
    }
    if (sizes.some((x) => x > LIMIT)) break;
    const total = sizes.reduce((a, b) => a + b, 0);
    best = { readings: n, bytesPerReading: total / (batches.length * n), bytesPerMessage: total / batches.length };
  }
  return best;
}

/** One whole record per message (the studio before issue #27): bytes per reading = bytes per message. */
function onePerMessage(s: Subject, format: FormatId): number {
  const codec = codecFor(s.layout(1), format);
  const recs = s.records();
  return recs.reduce((a, r) => a + codec.encode(r).length, 0) / recs.length;
}

interface SenmlRow {
  format: FormatId;
  readings: number;
  delta: number;
  senmlCbor: number;
  /** the SenML JSON's text labels written in CBOR */
  senmlCborText: number;
  senmlJson: number;
  /** SenML records: one per value sent */
  values: number;
}

/** The delta form's messages against SenML of exactly the same readings, message by message. */
function againstSenml(s: Subject, format: FormatId, n: number): SenmlRow {
  const batches = s.batches(n);
  const layout = s.layout(n);
  const codec = batchCodecFor(layout, format, "delta", n);
  const batch = layout.batch!;
  const perReading = new Set(batch.perReading.map((p) => p.field));
  const fields = {
    perReading: layout.fields.filter((f) => perReading.has(f.id)),
    once: layout.fields.filter((f) => !perReading.has(f.id)),
  };
  const timeKey = layout.fields.find((f) => f.id === batch.time)?.key;
  let delta = 0;
  let cbor = 0;
  let cborText = 0;
  let json = 0;
  let values = 0;
  for (const b of batches) {
    delta += codec.encode(b).length;
    const pack = senmlPack(b, fields, {
      baseName: "urn:dev:tracker:1:",
      timeKey,
      intervalSeconds: batch.intervalSeconds,
    });
    cbor += senmlCbor(pack).length;
    cborText += senmlCbor(pack, "json").length;
    json += senmlJson(pack).length;
    values += pack.length;
  }
  return { format, readings: n, delta, senmlCbor: cbor, senmlCborText: cborText, senmlJson: json, values };
}

const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "–");
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function subjectSection(s: Subject): string {
  const rows: string[] = [];
  let bestDelta: { format: FormatId; cell: Cell } | undefined;
  for (const format of FORMAT_IDS) {
    const one = onePerMessage(s, format);
    const cells = FORMS.map((form) => bestFit(s, format, form));
    const [columns, delta] = cells as [Cell, Cell];
    if (delta.readings > 0 && (!bestDelta || delta.bytesPerReading < bestDelta.cell.bytesPerReading))
      bestDelta = { format, cell: delta };
    const best = Math.min(...cells.filter((c) => c.readings > 0).map((c) => c.bytesPerReading));
    rows.push(
      `| ${FORMAT_LABELS[format]} | ${fmt(one)} | ${columns.readings} | ${fmt(columns.bytesPerReading, 2)} | ${delta.readings} | ${fmt(delta.bytesPerReading, 2)} | ${Number.isFinite(best) ? `${fmt(one / best)}×` : "–"} |`,
    );
  }
  const lines = [
    `### ${s.name}`,
    "",
    s.source,
    "",
    `| format | 1 reading/msg, B | columns: readings in ${LIMIT} B | B/reading | delta: readings in ${LIMIT} B | B/reading | best batch vs 1/msg |`,
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ];
  if (bestDelta) {
    const r = againstSenml(s, bestDelta.format, bestDelta.cell.readings);
    const saved = 1 - r.delta / r.senmlCbor;
    lines.push(
      "",
      `SenML of the same readings (${r.readings} a message, ${FORMAT_LABELS[r.format]} delta, the smallest delta form): ` +
        `delta ${r.delta} B; SenML CBOR with RFC 8428 labels ${r.senmlCbor} B, with the JSON's text labels ` +
        `${r.senmlCborText} B; SenML JSON ${r.senmlJson} B. The delta form is **${pct(saved)} smaller than SenML CBOR** ` +
        `(goal ≥ ${pct(GOAL)}: ${saved >= GOAL ? "met" : "NOT met"}), ${pct(1 - r.delta / r.senmlCborText)} smaller ` +
        `than the SenML JSON written as CBOR, ${pct(1 - r.delta / r.senmlJson)} smaller than SenML JSON. ` +
        `Per value sent (${r.values} values): SenML CBOR ${fmt(r.senmlCbor / r.values, 2)} B, the delta form ` +
        `${fmt(r.delta / r.values, 2)} B; the goal would need ${fmt(((1 - GOAL) * r.senmlCbor) / r.values, 2)} B.`,
    );
  }
  return lines.join("\n");
}

function main(): void {
  const subjects: Subject[] = [
    ...PRESETS.map((p) =>
      generated(
        p.id,
        p.layout,
        p.layout.batch
          ? `${p.name}: its own batch settings, ${MESSAGES} messages of generated series (seed ${SEED}).`
          : `${p.name}: no batch of its own, so every numeric field per reading every 15 min (full-range deltas), ${MESSAGES} messages of generated series (seed ${SEED}).`,
      ),
    ),
    dataset(),
  ];
  const body = subjects.map(subjectSection).join("\n\n");
  const section = [
    MARK,
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machineLine()}. Every message must fit ${LIMIT} B ` +
      `(${platformById(PLATFORM)!.name}) and decodes alone; "readings in ${LIMIT} B" is the most readings per message for ` +
      "which every measured message fits, B/reading the mean message size over the readings it carries.",
    "",
    body,
    MARK,
  ].join("\n");
  console.log(section);
  if (WRITE) writeDocSection(MARK, `${section}\n`);
}

main();
