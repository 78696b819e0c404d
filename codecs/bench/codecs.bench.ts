// `npm run bench:codecs`: encode/decode throughput per format and the designer's full recompute, written into docs/benchmarks.md.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureSizes } from "../src/analysis/sizes.ts";
import { codecFor } from "../src/formats/registry.ts";
import { FORMAT_IDS, type FormatId } from "../src/formats/types.ts";
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
  return `${cpu}, ${os.cpus().length} cores, ${gib} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}, 1-min load average ${os.loadavg()[0]!.toFixed(1)} at start`;
}

interface Row {
  format: FormatId;
  bytes: number;
  encode: number;
  decode: number;
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
    const decode = opsPerSecond(encoded, (b) => Object.keys(codec.decode(b)).length);
    rows.push({ format, bytes, encode, decode });
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

  const pb = rows.find((r) => r.format === "protobuf")!;
  const sbe = rows.find((r) => r.format === "sbe")!;
  const ratio = sbe.decode / pb.decode;
  const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
  const table = [
    `| format | mean bytes | encode ops/s | decode ops/s | encoding ${SAMPLES} samples |`,
    "|---|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.format} | ${r.bytes.toFixed(1)} | ${fmt(r.encode)} | ${fmt(r.decode)} | ${((SAMPLES * 1000) / r.encode).toFixed(1)} ms |`),
  ].join("\n");
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
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
    `SBE decode is ${ratio.toFixed(2)}× Protobuf decode (target ≥ ${TARGET_SBE_OVER_PROTOBUF}×: ${verdict(ratio >= TARGET_SBE_OVER_PROTOBUF)}).`,
    END,
  ].join("\n");

  process.stdout.write(`${section.split("\n").slice(1, -1).join("\n")}\n`);
  if (WRITE) {
    const doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : "# Benchmarks\n\n";
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    const next = start >= 0 && end > start ? doc.slice(0, start) + section + doc.slice(end + END.length) : `${doc.trimEnd()}\n\n## Codecs (\`npm run bench:codecs\`)\n\n${section}\n`;
    writeFileSync(DOC, next);
    process.stderr.write(`updated ${path.relative(ROOT, DOC)}\n`);
  }
  if (sink === 0.5) process.stderr.write("");
}

main();
