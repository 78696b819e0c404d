// `npm run bench:seed003`: seed 003 (Bacco, Colucci, Gotta 2017) row by row on several simulator
// seeds — each CoAP/MQTT row's error against Tables II and III, its spread, what the tables imply
// per packet, and the runs that show why a row misses ±10 % — written into docs/benchmarks.md
// between the `<!-- seed003 -->` markers. Nothing here is tuned: the settings are presets.ts's.
import os from "node:os";
import {
  coapTransport,
  feasibleBytesPerPacket,
  KB,
  mqttTransport,
  paperBytesPerPacket,
  SEED003_CHANNEL,
  SEED003_COAP_BLOCK,
  SEED003_SLOTS_PER_SECOND,
  SEED003_STACKS,
  seed003Row,
  seed003Scenario,
  simulateScenario,
  type Seed003Row,
} from "#planning/channel";
import { writeDocSection } from "#services/shared/docSection.ts";

const MARK = "<!-- seed003 -->";
const SEEDS = [1, 2, 3, 4, 5];
const SENSITIVITY_SEEDS = [1, 2];
const TOLERANCE = 0.1;
const noWrite = process.argv.includes("--no-write");

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, xs.length - 1));
};
const pct = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)} %`;
const within = (x: number) => (Math.abs(x) <= TOLERANCE ? "yes" : "**no**");
/** Application bytes delivered per packet sent (collisions are negligible at these loads). */
const perPacket = (kbps: number, load: number) => (kbps * KB) / (load * SEED003_SLOTS_PER_SECOND);

function errorTable(bySeed: Seed003Row[][]): string {
  const rows = [
    "| stack | paper KB/s | sim KB/s (mean) | Δ mean | Δ sd | Δ min … max | ±10 % | paper G | sim G (mean) | Δ mean | Δ sd | Δ min … max | ±10 % | B/packet paper | B/packet sim |",
    "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|",
  ];
  const paperB = paperBytesPerPacket(KB);
  SEED003_STACKS.forEach((_, i) => {
    const runs = bySeed.map((r) => r[i]!);
    const first = runs[0]!;
    const g = runs.map((r) => r.goodputKBps / r.paperGoodputKBps - 1);
    const kbps = mean(runs.map((r) => r.goodputKBps));
    const load = mean(runs.map((r) => r.load.mean));
    const goodCells = `${first.paperGoodputKBps} | ${kbps.toFixed(1)} | ${pct(mean(g))} | ${(sd(g) * 100).toFixed(1)} % | ${pct(Math.min(...g))} … ${pct(Math.max(...g))} | ${within(mean(g))}`;
    if (!first.paperLoad) {
      rows.push(`| ${first.label} | ${goodCells} | – | ${load.toFixed(4)} | – | – | – | – | – | – |`);
      return;
    }
    const paperLoad = first.paperLoad.mean;
    const l = runs.map((r) => r.load.mean / paperLoad - 1);
    const pb = paperB.find((p) => p.nstart === first.nstart)!.bytesPerPacket;
    rows.push(
      `| ${first.label} | ${goodCells} | ${paperLoad} | ${load.toFixed(4)} | ${pct(mean(l))} | ${(sd(l) * 100).toFixed(1)} % | ${pct(Math.min(...l))} … ${pct(Math.max(...l))} | ${within(mean(l))} | ${pb.toFixed(1)} | ${perPacket(kbps, load).toFixed(1)} |`,
    );
  });
  return rows.join("\n");
}

interface Variant {
  name: string;
  terminals: number;
  /** bytes per CoAP packet; undefined = the preset's block */
  block?: number;
}

/** Mean goodput and load error over SENSITIVITY_SEEDS for a changed channel or CoAP packet. */
function variantRow(v: Variant, nstart: number | null): string {
  const g: number[] = [];
  const l: number[] = [];
  for (const seed of SENSITIVITY_SEEDS) {
    const base = nstart === null ? mqttTransport() : coapTransport(nstart);
    const transport =
      v.block !== undefined && base.kind === "coap"
        ? { ...base, blockSize: v.block, singlePacketBytes: v.block }
        : base;
    const sc = seed003Scenario(transport, 1000, seed);
    const r = simulateScenario({ ...sc, channel: { ...SEED003_CHANNEL, terminals: v.terminals } });
    const ref = seed003Row(nstart, 1, 1); // a 1-s run only for the paper's values and label
    g.push(r.goodputBytesPerSecond / KB / ref.paperGoodputKBps - 1);
    if (ref.paperLoad) l.push(r.offeredLoad.mean / ref.paperLoad.mean - 1);
  }
  const label = nstart === null ? "MQTT/TCP" : `CoAP NSTART ${nstart}`;
  return `| ${v.name} | ${label} | ${pct(mean(g))} | ${l.length ? pct(mean(l)) : "–"} |`;
}

const load0 = os.loadavg()[0]!;
const t0 = performance.now();
const bySeed = SEEDS.map((seed) => {
  const rows = SEED003_STACKS.map((n) => seed003Row(n, 1000, seed));
  process.stdout.write(`seed ${seed}: ${rows.map((r) => `${r.label} ${r.goodputKBps.toFixed(1)}`).join(", ")}\n`);
  return rows;
});
const errors = errorTable(bySeed);
process.stdout.write(`\n${errors}\n\n`);

const window = feasibleBytesPerPacket(TOLERANCE, KB);
const variants: Variant[] = [
  { name: "4 terminals", terminals: 4 },
  { name: "16 terminals", terminals: 16 },
  { name: "32 terminals", terminals: 32 },
  {
    name: `${Math.round((window.low + window.high) / 2)} B per CoAP packet (what-if, not the model)`,
    terminals: SEED003_CHANNEL.terminals,
    block: Math.round((window.low + window.high) / 2),
  },
];
const sens = ["| variant | stack | goodput Δ | load Δ |", "|---|---|---:|---:|"];
for (const v of variants) {
  const stacks = v.block !== undefined ? [1, 2, 5, 10, 100] : [1, 10, 100, null];
  for (const n of stacks) {
    sens.push(variantRow(v, n));
    process.stdout.write(`${sens[sens.length - 1]}\n`);
  }
}
const sensitivity = sens.join("\n");

const section = `${MARK}
## Seed 003 row by row (\`npm run bench:seed003\`)

Every CoAP/MQTT row of seed 003's Table II (goodput, KB = ${KB} B) and Table III (mean normalized
MAC offered load G) against the simulator at the paper's 1000 exchanges (λ⁻¹ = 1 s), on
${SEEDS.length} simulator seeds: Δ is (simulated / paper − 1) per seed, then its mean, sample standard
deviation and range; "±10 %" says whether the mean is within the issue's target. Why rows miss it:
[channel.md](channel.md#where-10--cannot-be-reached). Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC in ${((performance.now() - t0) / 1000).toFixed(0)} s, Node ${process.version}, 1-min load average ${load0.toFixed(1)} at start.

${errors}

*B/packet* is application bytes delivered per packet sent, goodput / (G × ${SEED003_SLOTS_PER_SECOND.toFixed(1)} slots/s):
for the paper, Table II over Table III; collisions are negligible in both. Every CoAP row of both
tables can be within ±10 % only if a packet carries ${window.low.toFixed(1)}–${window.high.toFixed(1)} B
(\`feasibleBytesPerPacket\`); the simulator's packets carry the ${SEED003_COAP_BLOCK} B block.

Runs that show which assumption moves which row (mean Δ over seeds ${SENSITIVITY_SEEDS.join(", ")}; the preset has
${SEED003_CHANNEL.terminals} terminals and ${SEED003_COAP_BLOCK} B blocks):

${sensitivity}
${MARK}`;
if (!noWrite) {
  writeDocSection(MARK, section);
  process.stdout.write(`wrote the seed003 section of docs/benchmarks.md\n`);
}
