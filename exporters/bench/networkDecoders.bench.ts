// `npm run bench:exports`: time per decodeUplink call of the generated network-server decoders (paper
// preset, node:vm as the tests run them), against ChirpStack's 100 ms budget; written into docs/benchmarks.md.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { codecFor, generateSamples, paperPreset, parseLayout } from "#codecs";
import { CHIRPSTACK_BUDGET_MS, DECODER_FORMATS, networkDecoderSource } from "../src/networkDecoders.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DOC = path.join(ROOT, "docs/benchmarks.md");
const BEGIN = "<!-- bench:exports:begin -->";
const END = "<!-- bench:exports:end -->";
const WRITE = !process.argv.includes("--no-write");

const layout = parseLayout(paperPreset);
const rows: string[] = [];
for (const format of DECODER_FORMATS) {
  const source = networkDecoderSource(layout, format, "ttn");
  const ctx = vm.createContext({});
  vm.runInContext(source, ctx);
  const codec = codecFor(layout, format);
  const inputs = generateSamples(layout, 1000, 1).map((r) => Array.from(codec.encode(r)));
  const call = new vm.Script("__out = decodeUplink(__in)");
  const times: number[] = [];
  let first = 0;
  for (let round = 0; round < 3; round++) {
    for (const bytes of inputs) {
      ctx.__in = { bytes, fPort: 1 };
      const t0 = process.hrtime.bigint();
      call.runInContext(ctx);
      const dt = Number(process.hrtime.bigint() - t0) / 1e6;
      if (round === 0 && times.length === 0 && first === 0) first = dt;
      else if (round > 0) times.push(dt);
    }
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  rows.push(
    `| ${format} | ${source.length} | ${first.toFixed(2)} | ${(q(0.5) * 1000).toFixed(1)} | ${(q(0.99) * 1000).toFixed(1)} | ${(q(1) * 1000).toFixed(0)} |`,
  );
}

const section = [
  BEGIN,
  "## Network-server decoders (`npm run bench:exports`)",
  "",
  `The paper preset's TTN decoder per format, 1 000 messages × 2 timed rounds after a warm-up round, each \`decodeUplink\` call through \`node:vm\` (as the tests run them; ChirpStack's budget is ${CHIRPSTACK_BUDGET_MS} ms per call). ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}.`,
  "",
  "| format | source chars | first call ms | median µs | p99 µs | max µs |",
  "|---|---:|---:|---:|---:|---:|",
  ...rows,
  END,
].join("\n");
process.stdout.write(`${section}\n`);

if (WRITE) {
  const doc = readFileSync(DOC, "utf8");
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  const next =
    a >= 0 && b > a ? doc.slice(0, a) + section + doc.slice(b + END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(`${DOC}.tmp`, next);
  renameSync(`${DOC}.tmp`, DOC);
}
