// `npm run bench:codecs`: encode/decode throughput per format and the designer's full recompute, written into docs/benchmarks.md.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { IncrementalSizes } from "../src/analysis/columns.ts";
import { DeflateSizes } from "../src/analysis/deflateSizes.ts";
import { SampleColumns } from "../src/analysis/sampleColumns.ts";
import { measureSizes } from "../src/analysis/sizes.ts";
import { codecFor, FORMAT_IDS, type FormatId } from "../src/formats/registry.ts";
import { sizeOf } from "../src/formats/sizer.ts";
import type { Field, Layout } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DOC = path.join(ROOT, "docs/benchmarks.md");
const BEGIN = "<!-- bench:codecs:begin -->";
const END = "<!-- bench:codecs:end -->";

const args = new Set(process.argv.slice(2));
const QUICK = args.has("--quick");
const WRITE = !args.has("--no-write");
const SAMPLES = 1000;
const RUNS = QUICK ? 3 : 9;
const RECOMPUTE_RUNS = QUICK ? 5 : 25;
/** each timed run loops over the samples until at least this long, so timer resolution does not matter */
const MIN_RUN_MS = QUICK ? 30 : 150;
const TARGET_RECOMPUTE_MS = 16;
const TARGET_SBE_OVER_PROTOBUF = 2;

let sink = 0;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Operations per second of `op` over all items, median of RUNS runs after one warm-up run. */
function opsPerSecond<T>(items: readonly T[], op: (x: T) => number): number {
  const once = () => {
    for (const x of items) sink += op(x);
  };
  const rates: number[] = [];
  for (let r = -1; r < RUNS; r++) {
    let ops = 0;
    const t0 = performance.now();
    let t = t0;
    do {
      once();
      ops += items.length;
      t = performance.now();
    } while (t - t0 < MIN_RUN_MS);
    if (r >= 0) rates.push((ops * 1000) / (t - t0));
  }
  return median(rates);
}

/** Milliseconds of `fn`, median of `runs` after a few warm-up calls (the designer is warm after the first keystroke). */
function timeMs(fn: () => void, runs: number): number {
  for (let i = 0; i < 3; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

function machine(): string {
  let cpu = os.cpus()[0]?.model ?? "unknown CPU";
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (m) cpu = m[1]!.trim();
  } catch {
    // not Linux: os.cpus() already named it
  }
  const gib = (os.totalmem() / 2 ** 30).toFixed(1);
  // other work on the machine slows every figure: say how busy it was
  return `${cpu}, ${os.cpus().length} cores, ${gib} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} at start`;
}

interface Row {
  format: FormatId;
  bytes: number;
  encode: number;
  /** size-only ops/s; null for deflate, which has no size-only path */
  size: number | null;
  decode: number;
}

const SIZE_ONLY = FORMAT_IDS.filter((f) => f !== "struct-zlib");

/**
 * The designer's sizes worker, as it runs after each change: sample columns (only changed fields drawn
 * again) and incremental size-only columns for 8 formats, Struct+Zlib from the stream cache (its own
 * worker in the designer, timed apart). Each call is one change, given as the layout and seed after it.
 */
class WorkerModel {
  private readonly cols = new SampleColumns();
  private readonly inc = new IncrementalSizes();
  private readonly deflate = new DeflateSizes();

  constructor(private readonly n: number) {}

  sizes(layout: Layout, seed: number, upTo = this.n): number {
    const { columns } = this.cols.columnsOf(layout, this.n, seed);
    let total = 0;
    for (const f of SIZE_ONLY)
      total += this.inc.measure(layout, columns, this.n, `${this.n}/${seed}`, f, upTo).stats.mean;
    this.inc.prune();
    return total;
  }

  zlib(layout: Layout, seed: number, upTo = this.n): number {
    const { columns } = this.cols.columnsOf(layout, this.n, seed);
    return this.deflate.measure(layout, columns, this.n, `${this.n}/${seed}`, upTo).stats.mean;
  }
}

/** A new layout object with one field's unit (not on the wire) or one field's samples (on the wire) changed. */
function unitEdit(i: number): Layout {
  return parseLayout({
    ...paperPreset,
    fields: (paperPreset.fields as Field[]).map((f) => (f.key === "pressure" ? { ...f, unit: `hPa ${i}` } : f)),
  });
}
function valueEdit(i: number): Layout {
  return parseLayout({
    ...paperPreset,
    fields: (paperPreset.fields as Field[]).map((f) =>
      f.key === "iso6346"
        ? { ...f, sample: { kind: "template" as const, template: i % 2 ? "LMCU{digits:7}" : "ABCU{digits:6}" } }
        : f,
    ),
  });
}
function spacingEdit(i: number): Layout {
  return parseLayout({ ...paperPreset, json: { spacing: i % 2 ? "python" : "compact" } });
}

interface IncRow {
  what: string;
  samples: number;
  ms: number;
  target?: number;
}

function incrementalRows(): IncRow[] {
  const rows: IncRow[] = [];
  for (const n of [SAMPLES, 10 * SAMPLES]) {
    const firstPass = Math.min(n, SAMPLES);
    const m = new WorkerModel(n);
    let i = 0;
    m.sizes(unitEdit(i), 1);
    m.zlib(unitEdit(i), 1);
    const runs = n > SAMPLES ? Math.max(3, Math.round(RECOMPUTE_RUNS / 3)) : RECOMPUTE_RUNS;
    const tag = n > SAMPLES ? ` (first ${firstPass})` : "";
    const edit = n > SAMPLES ? 50 : 16;
    rows.push({
      what: `edit, not on the wire (unit): parse + compile + 8 size-only formats${tag}`,
      samples: n,
      ms: timeMs(() => (sink += m.sizes(unitEdit(++i), 1, firstPass)), runs),
      target: edit,
    });
    rows.push({
      what: `edit of one field's values: parse + compile + redraw 1 column + 8 size-only formats${tag}`,
      samples: n,
      ms: timeMs(() => (sink += m.sizes(valueEdit(++i), 1, firstPass)), runs),
      target: edit,
    });
    if (n > SAMPLES)
      rows.push({
        what: "edit of one field's values, refined to every sample",
        samples: n,
        ms: timeMs(() => (sink += m.sizes(valueEdit(++i), 1)), runs),
      });
    rows.push({
      what: `Struct+Zlib, edit not on the wire (no stream changed)${tag}`,
      samples: n,
      ms: timeMs(() => (sink += m.zlib(unitEdit(++i), 1, firstPass)), runs),
    });
    rows.push({
      what: `Struct+Zlib, edit of one field's values (every stream changed)${tag}`,
      samples: n,
      ms: timeMs(() => (sink += m.zlib(valueEdit(++i), 1, firstPass)), runs),
    });
    if (n === SAMPLES) {
      let seed = 10;
      const layout = unitEdit(0);
      rows.push({
        what: "new seed: draw every column + 8 size-only formats",
        samples: n,
        ms: timeMs(() => (sink += m.sizes(layout, ++seed)), runs),
        target: 50,
      });
      rows.push({
        what: "format option (JSON spacing): parse + compile + every column of 8 formats",
        samples: n,
        ms: timeMs(() => (sink += m.sizes(spacingEdit(++i), seed)), runs),
        target: 50,
      });
      rows.push({
        what: "Struct+Zlib, new seed",
        samples: n,
        ms: timeMs(() => (sink += m.zlib(layout, ++seed)), runs),
      });
    }
  }
  return rows;
}

function main(): void {
  const host = machine();
  const layout = parseLayout(paperPreset);
  const samples = generateSamples(layout, SAMPLES, 1);
  const rows: Row[] = [];
  for (const format of FORMAT_IDS) {
    const codec = codecFor(layout, format);
    const encoded = samples.map((s) => codec.encode(s));
    const bytes = encoded.reduce((a, b) => a + b.length, 0) / encoded.length;
    const encode = opsPerSecond(samples, (s) => codec.encode(s).length);
    const sizer = codec.sizer;
    const size = sizer ? opsPerSecond(samples, (s) => sizeOf(sizer, s)) : null;
    const decode = opsPerSecond(encoded, (b) => Object.keys(codec.decode(b)).length);
    rows.push({ format, bytes, encode, size, decode });
    process.stderr.write(`${format}: ${Math.round(encode)} enc/s, ${Math.round(decode)} dec/s\n`);
  }

  // a keystroke changes the layout: parse it again (a new object, so every codec compiles again), draw the samples, measure all formats
  const cold = timeMs(() => {
    const l = parseLayout(paperPreset);
    sink += measureSizes(l, generateSamples(l, SAMPLES, 1)).length;
  }, RECOMPUTE_RUNS);
  // the same layout with a new seed: generation and measurement only
  let seed = 2;
  const warm = timeMs(() => {
    sink += measureSizes(layout, generateSamples(layout, SAMPLES, seed++)).length;
  }, RECOMPUTE_RUNS);

  const generation = timeMs(() => {
    sink += generateSamples(layout, SAMPLES, seed++).length;
  }, RECOMPUTE_RUNS);

  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  const pb = rows.find((r) => r.format === "protobuf")!;
  const sbe = rows.find((r) => r.format === "sbe")!;
  const ratio = sbe.decode / pb.decode;
  const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
  const table = [
    `| format | mean bytes | encode ops/s | size-only ops/s | decode ops/s | encoding ${SAMPLES} samples |`,
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.format} | ${r.bytes.toFixed(1)} | ${fmt(r.encode)} | ${r.size === null ? "–" : fmt(r.size)} | ${fmt(r.decode)} | ${((SAMPLES * 1000) / r.encode).toFixed(1)} ms |`,
    ),
  ].join("\n");
  const inc = incrementalRows();
  const incTable = [
    "| the sizes worker after a change (median) | samples | ms | target |",
    "|---|---:|---:|---|",
    ...inc.map(
      (r) =>
        `| ${r.what} | ${r.samples.toLocaleString("en-US")} | ${r.ms.toFixed(1)} | ${r.target === undefined ? "" : `≤ ${r.target} ms: ${verdict(r.ms <= r.target)}`} |`,
    ),
  ].join("\n");
  const section = [
    BEGIN,
    `Measured ${new Date().toISOString().slice(0, 10)} on ${host}${QUICK ? " (quick run: fewer repetitions)" : ""}.`,
    `Paper preset, ${SAMPLES} samples (seed 1); each figure is the median of ${RUNS} runs of at least ${MIN_RUN_MS} ms.`,
    "",
    table,
    "",
    `| full recompute (paper preset × ${FORMAT_IDS.length} formats × ${SAMPLES} samples) | median of ${RECOMPUTE_RUNS} | target |`,
    "|---|---:|---|",
    `| new layout: parse + compile + generate + measure | ${cold.toFixed(1)} ms | ≤ ${TARGET_RECOMPUTE_MS} ms: ${verdict(cold <= TARGET_RECOMPUTE_MS)} |`,
    `| same layout, new seed: generate + measure | ${warm.toFixed(1)} ms | ≤ ${TARGET_RECOMPUTE_MS} ms: ${verdict(warm <= TARGET_RECOMPUTE_MS)} |`,
    `| of which sample generation alone | ${generation.toFixed(1)} ms | |`,
    "",
    "Incremental path (what the designer's workers run since issue #16: size-only columns per field, cached; Struct+Zlib apart):",
    "",
    incTable,
    "",
    `SBE decode is ${ratio.toFixed(2)}× Protobuf decode (target ≥ ${TARGET_SBE_OVER_PROTOBUF}×: ${verdict(ratio >= TARGET_SBE_OVER_PROTOBUF)}).`,
    END,
  ].join("\n");

  process.stdout.write(`${section.split("\n").slice(1, -1).join("\n")}\n`);
  if (WRITE) {
    const doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : "# Benchmarks\n\n";
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    const next =
      start >= 0 && end > start
        ? doc.slice(0, start) + section + doc.slice(end + END.length)
        : `${doc.trimEnd()}\n\n## Codecs (\`npm run bench:codecs\`)\n\n${section}\n`;
    writeFileSync(DOC, next);
    process.stderr.write(`updated ${path.relative(ROOT, DOC)}\n`);
  }
  if (sink === 0.5) process.stderr.write("");
}

main();
