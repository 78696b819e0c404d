// `npm run bench:gateway`: seeds 002/004's gateway workload — telemetry messages with payloads of at
// most 100 and 1000 bytes streamed over a loopback TCP socket in batches of 100 … 100 000 — through
// six receivers (SBE, Protobuf and FlatBuffers, ours and a reference each), timed from the first byte to the
// last decoded message with the receiver's CPU %, printed and written into docs/benchmarks.md
// between the `<!-- gateway -->` markers beside the seeds' Tables 1–4.
//   --max-batch N (default 100000; e.g. 10000 for a quick run)  --repeats N (default 7)  --no-write
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { codecFor } from "#codecs";
import { compileSbe, protobufCodec } from "#codecs/plans";
import { machineLine, writeDocSection } from "#services/shared/docSection.ts";
import { intFlag, parseFlags } from "#services/shared/flags.ts";
import { writeFlatcModule } from "./gateway/flatcTelemetry.ts";
import { frameAll } from "./gateway/framing.ts";
import {
  buildJavaReceiver,
  DECODING_KINDS,
  formatOf,
  RECEIVER_LABELS,
  startReceiver,
  type BatchResult,
  type Receiver,
  type ReceiverKind,
  type WireFormat,
} from "./gateway/receivers.ts";
import { SEED_BATCHES, SEED_TABLES } from "./gateway/seedFindings.ts";
import { writeStaticModule } from "./gateway/staticProtobuf.ts";
import {
  digestOf,
  framesDigestOf,
  PAYLOAD_LIMITS,
  telemetryLayout,
  telemetryRecords,
  type PayloadLimit,
} from "./gateway/telemetry.ts";

const MARK = "<!-- gateway -->";
const WARMUP_ROUNDS = 3;
/** small batches after the large ones: the per-batch code (accept, report) gets compiled too */
const WARMUP_SMALL = 50;

const flags = parseFlags(process.argv.slice(2), {
  "max-batch": { type: "string" },
  repeats: { type: "string" },
  "no-write": { type: "boolean", default: false },
});
const maxBatch = intFlag(flags["max-batch"], "--max-batch", 100_000, 100, 100_000);
const repeats = intFlag(flags.repeats, "--repeats", 7, 1, 50);
const batches = SEED_BATCHES.filter((n) => n <= maxBatch);

interface Cell {
  ms: number;
  cpuPercent: number;
  /** receiver CPU time per message: the decoder's cost, least moved by other jobs on the machine */
  cpuUsPerMessage: number;
}
interface SizeResult {
  limit: PayloadLimit;
  meanBytes: Record<WireFormat, number>;
  cells: Map<ReceiverKind, Map<number, Cell>>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
/** the decoders, then the framing-only floor (reading the SBE stream, the larger of the two) */
const RECEIVER_KINDS: readonly ReceiverKind[] = [...DECODING_KINDS, "frames-only"];

function check(kind: ReceiverKind, n: number, r: BatchResult, digest: string): void {
  if (r.messages !== n || r.digest !== digest)
    throw new Error(`${kind}: batch of ${n} came back as ${r.messages} messages, digest ${r.digest} (sent ${digest})`);
}

async function measureSize(limit: PayloadLimit, dir: string): Promise<SizeResult> {
  const layout = telemetryLayout(limit);
  const records = telemetryRecords(limit, maxBatch, 1);
  const encoders = {
    sbe: compileSbe(layout),
    protobuf: protobufCodec.compile(layout),
    flatbuffers: codecFor(layout, "flatbuffers"),
  };
  const encoded = {
    sbe: records.map((r) => encoders.sbe.encode(r)),
    protobuf: records.map((r) => encoders.protobuf.encode(r)),
    flatbuffers: records.map((r) => encoders.flatbuffers.encode(r)),
  };
  const framed = {
    sbe: new Map<number, Buffer>(),
    protobuf: new Map<number, Buffer>(),
    flatbuffers: new Map<number, Buffer>(),
  };
  const digests = new Map<number, string>();
  const frameDigests = new Map<number, string>();
  for (const n of batches) {
    framed.sbe.set(n, frameAll(encoded.sbe.slice(0, n)));
    framed.protobuf.set(n, frameAll(encoded.protobuf.slice(0, n)));
    framed.flatbuffers.set(n, frameAll(encoded.flatbuffers.slice(0, n)));
    digests.set(n, digestOf(records.slice(0, n)));
    frameDigests.set(n, framesDigestOf(encoded.sbe.slice(0, n)));
  }
  const expect = (k: ReceiverKind, n: number) => (k === "frames-only" ? frameDigests : digests).get(n)!;
  const mean = (xs: Uint8Array[]) => xs.reduce((s, b) => s + b.length, 0) / xs.length;
  const meanBytes = {
    sbe: mean(encoded.sbe),
    protobuf: mean(encoded.protobuf),
    flatbuffers: mean(encoded.flatbuffers),
  };

  const staticModule = writeStaticModule(layout, mkdtempSync(path.join(dir, `p${limit}-`)));
  const flatcModule = writeFlatcModule(layout, mkdtempSync(path.join(dir, `f${limit}-`)));
  const javaClasses = buildJavaReceiver(limit);
  const receivers: Receiver[] = [];
  const runs = new Map<ReceiverKind, Map<number, BatchResult[]>>(
    RECEIVER_KINDS.map((k) => [k, new Map(batches.map((n) => [n, []]))]),
  );
  try {
    for (const kind of RECEIVER_KINDS)
      receivers.push(await startReceiver(kind, { maxPayload: limit, staticModule, flatcModule, javaClasses }));
    // JIT warm-up (V8 and HotSpot both compile hot code after thousands of calls), unmeasured
    const warm = batches.filter((n) => n <= 10_000).at(-1)!;
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      for (const r of receivers)
        check(r.kind, warm, (await r.send(framed[formatOf(r.kind)].get(warm)!)).result, expect(r.kind, warm));
    }
    for (let i = 0; i < WARMUP_SMALL; i++) {
      for (const r of receivers)
        check(r.kind, 100, (await r.send(framed[formatOf(r.kind)].get(100)!)).result, expect(r.kind, 100));
    }
    // round robin, so a change in the machine's load falls on every receiver alike
    for (const n of batches) {
      for (let i = 0; i < repeats; i++) {
        for (const r of receivers) {
          const { result } = await r.send(framed[formatOf(r.kind)].get(n)!);
          check(r.kind, n, result, expect(r.kind, n));
          runs.get(r.kind)!.get(n)!.push(result);
        }
      }
      process.stdout.write(
        `  ≤${limit} B, ${n} messages: ${receivers
          .map(
            (r) =>
              `${r.kind} ${median(
                runs
                  .get(r.kind)!
                  .get(n)!
                  .map((x) => x.ms),
              ).toFixed(2)} ms`,
          )
          .join(", ")}\n`,
      );
    }
  } finally {
    await Promise.all(receivers.map((r) => r.stop()));
  }
  const cells = new Map<ReceiverKind, Map<number, Cell>>();
  for (const [kind, byN] of runs) {
    cells.set(
      kind,
      new Map(
        [...byN].map(([n, rs]) => [
          n,
          {
            ms: median(rs.map((r) => r.ms)),
            cpuPercent: median(rs.map((r) => (r.cpuMs / r.ms) * 100)),
            cpuUsPerMessage: median(rs.map((r) => (r.cpuMs * 1000) / n)),
          },
        ]),
      ),
    );
  }
  return { limit, meanBytes, cells };
}

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const cellText = (c: Cell) => `${ms(c.ms)} ms (${c.cpuPercent.toFixed(0)} %)`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

function sizeTable(s: SizeResult): string {
  const seed = SEED_TABLES[s.limit];
  const head = `| batch | ${RECEIVER_KINDS.map((k) => RECEIVER_LABELS[k]).join(" | ")} | seed SBE (Go, Pi 5) | seed Protobuf (Go, Pi 5) | Protobuf ÷ SBE time: ours · references · seed |`;
  const rows = batches.map((n) => {
    const c = (k: ReceiverKind) => s.cells.get(k)!.get(n)!;
    const seedCell = (f: "sbe" | "protobuf") => `${seed[f][n]!.ms} ms (${seed[f][n]!.cpuPercent} %)`;
    return `| ${n.toLocaleString("en-US")} | ${RECEIVER_KINDS.map((k) => cellText(c(k))).join(" | ")} | ${seedCell("sbe")} | ${seedCell("protobuf")} | ${ratio(c("ours-protobuf").ms, c("ours-sbe").ms)} · ${ratio(c("pbjs-static").ms, c("java-sbe").ms)} · ${ratio(seed.protobuf[n]!.ms, seed.sbe[n]!.ms)} |`;
  });
  return [head, `|---:|${RECEIVER_KINDS.map(() => "---:").join("|")}|---:|---:|---:|`, ...rows].join("\n");
}

function cpuTable(s: SizeResult): string {
  const rows = batches.map(
    (n) =>
      `| ${n.toLocaleString("en-US")} | ${RECEIVER_KINDS.map((k) => s.cells.get(k)!.get(n)!.cpuUsPerMessage.toFixed(2)).join(" | ")} |`,
  );
  return [
    `| batch | ${RECEIVER_KINDS.map((k) => RECEIVER_LABELS[k]).join(" | ")} |`,
    `|---:|${RECEIVER_KINDS.map(() => "---:").join("|")}|`,
    ...rows,
  ].join("\n");
}

/** Which format took less time, per batch size: "SBE", "Protobuf". */
function winners(s: SizeResult, sbe: ReceiverKind, pb: ReceiverKind, metric: "ms" | "cpuUsPerMessage" = "ms"): string {
  return batches
    .map((n) => (s.cells.get(sbe)!.get(n)![metric] <= s.cells.get(pb)!.get(n)![metric] ? "SBE" : "Protobuf"))
    .join(" / ");
}

function comparison(results: SizeResult[]): string {
  const lines: string[] = [];
  const sizes = batches.map((n) => n.toLocaleString("en-US")).join(" / ");
  const top = batches.at(-1)!;
  const us = (x: number) => `${x.toFixed(2)} µs`;
  for (const s of results) {
    const seed = SEED_TABLES[s.limit];
    const seedWins = batches.map((n) => (seed.sbe[n]!.ms <= seed.protobuf[n]!.ms ? "SBE" : "Protobuf")).join(" / ");
    const cpu = (k: ReceiverKind) => s.cells.get(k)!.get(top)!.cpuUsPerMessage;
    const floor = cpu("frames-only");
    lines.push(
      `- ≤ ${s.limit} B (mean message ${s.meanBytes.sbe.toFixed(0)} B in SBE, ${s.meanBytes.protobuf.toFixed(0)} B in Protobuf, ${s.meanBytes.flatbuffers.toFixed(0)} B in FlatBuffers). Faster format by elapsed time at ${sizes} messages — ours: ${winners(s, "ours-sbe", "ours-protobuf")}; references (Java SBE vs protobufjs static): ${winners(s, "java-sbe", "pbjs-static")}; seed: ${seedWins}. Less CPU per message — ours: ${winners(s, "ours-sbe", "ours-protobuf", "cpuUsPerMessage")}; references: ${winners(s, "java-sbe", "pbjs-static", "cpuUsPerMessage")}. At ${top.toLocaleString("en-US")}: ours SBE ${us(cpu("ours-sbe"))} vs ours Protobuf ${us(cpu("ours-protobuf"))} per message, Java SBE ${us(cpu("java-sbe"))} vs protobufjs static ${us(cpu("pbjs-static"))}; a Node receiver that only splits the frames spends ${us(floor)} of that, so the decoding itself is about ${us(Math.max(0, cpu("ours-sbe") - floor))} (ours SBE), ${us(Math.max(0, cpu("ours-protobuf") - floor))} (ours Protobuf), ${us(Math.max(0, cpu("pbjs-static") - floor))} (protobufjs static).`,
    );
    // FlatBuffers is read in place: the official accessors decode nothing until asked, and the bench asks for every field
    lines.push(
      `  FlatBuffers at ${top.toLocaleString("en-US")}: ours ${us(cpu("ours-flatbuffers"))} per message (a validated, bounds-checked record, like our other decoders), flatc --ts accessors ${us(cpu("flatc-ts"))} (no verifier: the npm runtime has none, so they trust the bytes); decoding itself about ${us(Math.max(0, cpu("ours-flatbuffers") - floor))} and ${us(Math.max(0, cpu("flatc-ts") - floor))}.`,
    );
  }
  const big = results.find((s) => s.limit === 1000);
  if (big && top === 100_000) {
    const c = (k: ReceiverKind) => big.cells.get(k)!.get(top)!;
    lines.push(
      `- The seeds' headline cell, ≤ 1000 B × 100 000: seed SBE 78.1 ms at 95.7 % CPU vs Protobuf 52.7 ms at 67.1 %. Here ours SBE ${cellText(c("ours-sbe"))} vs ours Protobuf ${cellText(c("ours-protobuf"))}; Java SBE ${cellText(c("java-sbe"))} vs protobufjs static ${cellText(c("pbjs-static"))}.`,
    );
  }
  if (
    big &&
    big.cells.get("ours-protobuf")!.get(top)!.cpuUsPerMessage < big.cells.get("ours-sbe")!.get(top)!.cpuUsPerMessage
  ) {
    lines.push(
      `- Why ours SBE loses to ours Protobuf on long payloads: our SBE decoder builds a string 4 characters at a time (\`readUtf8\` in \`codecs/src/text/utf8.ts\`, tuned for the 1–30-byte strings telemetry usually holds) while our Protobuf reader hands strings over 32 bytes to \`TextDecoder\`. The wire format is not the cause: the official SBE Java codecs decode the same bytes for ${us(big.cells.get("java-sbe")!.get(top)!.cpuUsPerMessage)} per message.`,
    );
  }
  lines.push(
    "- Elapsed times with a CPU % far under 100 % mean the receiver waited: for data, or on this shared machine for a core (see the load average). The CPU-per-message tables are the comparison to trust here; the elapsed times are the seeds' metric and are shown for it.",
  );
  return lines.join("\n");
}

function javaVersion(): string {
  const r = spawnSync("java", ["-version"], { encoding: "utf8" });
  return (r.stderr.split("\n").find((l) => l.includes("version")) ?? "java (version unknown)").trim();
}

async function main(): Promise<void> {
  const load0 = os.loadavg();
  const started = new Date();
  const t0 = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-bench-gateway-"));
  const results: SizeResult[] = [];
  try {
    for (const limit of PAYLOAD_LIMITS) results.push(await measureSize(limit, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (performance.now() - t0) / 1000;
  const load1 = os.loadavg();
  const tables = results
    .map((s) => `Payload ≤ ${s.limit} B: processing time (receiver CPU %)\n\n${sizeTable(s)}`)
    .join("\n\n");
  const cpuTables = results
    .map((s) => `Payload ≤ ${s.limit} B: receiver CPU µs per message\n\n${cpuTable(s)}`)
    .join("\n\n");
  const text = comparison(results);
  process.stdout.write(`\n${tables}\n\n${cpuTables}\n\n${text}\n`);
  if (flags["no-write"]) return;
  const section = `${MARK}
## Gateway: SBE vs Protobuf over a socket, seeds 002/004 (\`npm run bench:gateway\`)

The seeds' workload (Paliy, Bidochka 2026, Tables 1–4): a sender streams telemetry messages
(\`id\` int64, \`timestamp\` uint64 ns, \`payload\` string of 1..100 or 1..1000 ASCII bytes, uniform;
the seeds' Fig. 2 struct) as uint32-length-prefixed frames over one loopback TCP connection per
batch to a receiver process that decodes every message and folds every field into a digest; the
bench checks each digest against the values sent, so no receiver can skip work or decode wrongly
(\`bench/gateway/test/receivers.test.ts\` proves each one returns the sent values). Time:
receiver's first byte → last message decoded. CPU %: the receiver process's CPU time over that
time (all its threads: JIT compiler and GC included; \`process.cpuUsage()\` in Node; in Java the
receiving thread's CPU clock plus the other threads' \`/proc/self/task/*/schedstat\`), 100 % = one
core busy. Median of ${repeats} runs after ${WARMUP_ROUNDS}
unmeasured warm-up batches of up to 10 000 messages and ${WARMUP_SMALL} of 100 per receiver, receivers taking
turns batch by batch. The JVM's JIT compiler threads still recompile now and then after the
warm-up; their CPU counts (it is the receiver's), which is why single Java runs of small batches
can exceed 100 %.

Receivers: ours = \`compileSbe(layout).decode\` / \`protobufCodec.compile(layout).decode\` /
\`codecFor(layout, "flatbuffers").decode\` from
\`codecs/src\` (validated typed records, int64 as bigint, which the digest then splits into
halves: a cost the references, reading \`Long\`/\`long\` halves, do not pay); the references are the official SBE Java
codecs SbeTool 1.38.1 generates from our exported schema (flyweights over a direct buffer, payload
read as a \`String\`; ${javaVersion()}) and protobufjs 8 static code \`pbjs -t static-module\`
generates from our exported \`.proto\` (int64 as long.js \`Long\`), and the accessor classes
\`flatc --ts\` (Debian's flatc) generates from our exported \`.fbs\`, bundled with the npm
\`flatbuffers\` runtime (int64 as \`bigint\`, every field read through its accessor). FlatBuffers is
not in the seeds: its rows have no seed column to compare with.

Measured ${started.toISOString().slice(0, 16).replace("T", " ")} UTC in ${seconds.toFixed(0)} s on ${machineLine(load0)} at the start, ${load1.map((x) => x.toFixed(1)).join(" ")} at the end (other jobs shared the machine; the elapsed times move with it).

${tables}

The receivers' CPU time per message (framing, decoding, the digest; median of the runs): the
decoders' own cost, which the shared machine moves far less than the elapsed times above.

${cpuTables}

What it says:

${text}
- Not the seeds' setup: their receiver is Go on a Raspberry Pi 5 (Arm Cortex-A76, 4 cores), ours
  are Node and Java on the shared x86 machine above; their CPU % is not defined in the paper (it
  reads like the machine's utilisation over the run, 0.2 % for 100 messages), ours is the
  receiver's busy share of one core during the batch, so only its trend compares. The seed's
  prose once says SBE is faster "in absolute time" at 1000 B × 100 000; its Table 4 (78.1 ms)
  against Table 3 (52.7 ms) says the opposite, and the tables are what is quoted here.
${MARK}`;
  writeDocSection(MARK, section);
  process.stdout.write(`wrote the gateway section of docs/benchmarks.md (${seconds.toFixed(0)} s)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:gateway: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
