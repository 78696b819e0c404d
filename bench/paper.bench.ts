// `npm run bench:paper`: the paper's load matrix (Protobuf and Struct+Zlib, 100…2000 devices waiting
// U(1, 3) s, 1/2/4 decoder replicas) on this machine, written into docs/benchmarks.md between the
// `<!-- paper-matrix -->` markers with the paper's published cells beside ours.
//   npm run bench:paper -- [--duration 20] [--warmup 5] [--spawn-rate 200] [--devices 100,300,500,1000,2000]
//                          [--replicas 1,2,4] [--formats protobuf,struct-zlib] [--no-write] [--json FILE]
//                          [--transports http,mqtt,coap] [--transport-devices 100,1000] (--transports "" skips them)
//                          [--only-transports]: the transport rows alone, written between `<!-- paper-transports -->`
//                          [--locust-seconds 30] [--locust-users 2000] [--no-locust]
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type FormatId, isFormatId } from "#codecs";
import type { LoadTestResult } from "#contracts/loadtest/result.ts";
import { TRANSPORTS, type Transport } from "#contracts/loadtest/spec.ts";
import { markdownTable, replicasOf } from "#contracts/loadtest/table.ts";
import { PAPER_WORKLOAD } from "#planning/paper";
import { presetLayout } from "#services/loadgen/src/layoutSource.ts";
import { matrixCells, runMatrix } from "#services/loadgen/src/matrix.ts";
import { writeDocSection } from "#services/shared/docSection.ts";
import { compareWithLocust, locustTable } from "./locustCompare.ts";
import { runTransports, transportTable } from "./transports.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOC = path.join(ROOT, "docs/benchmarks.md");
const MARK = "<!-- paper-matrix -->";
const TRANSPORT_MARK = "<!-- paper-transports -->";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "20" },
    warmup: { type: "string", default: "5" },
    "spawn-rate": { type: "string", default: "200" },
    devices: { type: "string", default: PAPER_WORKLOAD.deviceCounts.join(",") },
    replicas: { type: "string", default: PAPER_WORKLOAD.instanceCounts.join(",") },
    formats: { type: "string", default: "protobuf,struct-zlib" },
    "no-write": { type: "boolean", default: false },
    json: { type: "string" },
    transports: { type: "string", default: "http,mqtt,coap" },
    "transport-devices": { type: "string", default: "100,1000" },
    "only-transports": { type: "boolean", default: false },
    "locust-seconds": { type: "string", default: "30" },
    "locust-users": { type: "string", default: "2000" },
    "no-locust": { type: "boolean", default: false },
  },
});
const ints = (s: string) =>
  s
    .split(",")
    .map((x) => Number(x.trim()))
    .filter((x) => Number.isInteger(x) && x > 0);
const formats = values.formats
  .split(",")
  .map((f) => f.trim())
  .filter(isFormatId) as FormatId[];
const spec = {
  layout: presetLayout("paper"),
  formats,
  devices: ints(values.devices),
  replicas: ints(values.replicas),
  base: {
    wait: { kind: "uniform" as const, min: PAPER_WORKLOAD.waitMinSeconds, max: PAPER_WORKLOAD.waitMaxSeconds },
    durationSeconds: Number(values.duration),
    warmupSeconds: Number(values.warmup),
    spawnRate: Number(values["spawn-rate"]),
    poolSize: PAPER_WORKLOAD.poolSize,
  },
};

const total = values["only-transports"] ? 0 : matrixCells(spec).length;
const load0 = os.loadavg();
const started = new Date();
process.stderr.write(
  `bench:paper: ${total} cells, ${spec.base.durationSeconds} s measured + ${spec.base.warmupSeconds} s warm-up each, load average ${load0.map((x) => x.toFixed(2)).join(" ")}\n`,
);
/**
 * the 1-minute load average as each cell ended and how late the generator itself ran: the machine is
 * shared, and a slow cell under a load spike or a starved generator is not the format's doing
 */
const cellLoad: string[] = [];
const results =
  total === 0
    ? []
    : await runMatrix(spec, {
        onCell: (r, i, n) => {
          cellLoad.push(
            `${r.settings.format} ${r.settings.devices}×${replicasOf(r)}: ${os.loadavg()[0]!.toFixed(1)} (generator event-loop lag p99 ${r.client.eventLoopLagP99Ms.toFixed(0)} ms, sends late p95 ${r.client.sendLagP95Ms.toFixed(0)} ms)`,
          );
          process.stderr.write(
            `  [${i + 1}/${n}] ${r.settings.format} ${r.settings.devices} devices × ${replicasOf(r)}: ${r.rps.toFixed(1)} RPS (${((r.offeredShare ?? 0) * 100).toFixed(1)} % of offered), p95 ${r.latency.p95} ms, ${r.requests.measuredFailed} failed${r.client.valid ? "" : " [client-limited]"}\n`,
          );
        },
      });
const transportResults = await runTransports(
  {
    layout: spec.layout,
    format: "protobuf",
    devices: ints(values["transport-devices"]),
    transports: values.transports
      .split(",")
      .map((t) => t.trim())
      .filter((t): t is Transport => (TRANSPORTS as readonly string[]).includes(t)),
    base: spec.base,
  },
  (r) =>
    process.stderr.write(
      `  ${r.settings.transport} ${r.settings.devices} devices: ${r.rps.toFixed(1)} RPS, p95 ${r.latency.p95} ms, ${r.requests.measuredFailed} failed\n`,
    ),
);
const locust =
  values["no-locust"] || values["only-transports"]
    ? undefined
    : await compareWithLocust({
        users: Number(values["locust-users"]),
        spawnRate: spec.base.spawnRate,
        seconds: Number(values["locust-seconds"]),
        format: "protobuf",
        log: (m) => process.stderr.write(`${m}\n`),
      });
const load1 = os.loadavg();

function targetCheck(rs: LoadTestResult[]): string[] {
  return rs
    .filter((r) => r.settings.devices === 2000 && replicasOf(r) === 1)
    .map((r) => {
      const share = (r.offeredShare ?? 0) * 100;
      const ok = share >= 99 && r.latency.p95 <= 20 && r.requests.measuredFailed === 0;
      return `- ${r.settings.format}, 2000 devices, one replica: ${r.rps.toFixed(1)} RPS = ${share.toFixed(1)} % of the offered ${r.offeredRps} RPS, p95 ${r.latency.p95} ms, ${r.requests.measuredFailed} failures → target (≥ 99 %, p95 ≤ 20 ms, 0 failures) ${ok ? "**met**" : "**missed**"}${r.client.valid ? "" : " (client-limited run)"}`;
    });
}

const section = [
  MARK,
  `### Paper matrix (Tables 3–6) on this machine`,
  "",
  `\`npm run bench:paper\` on ${started.toISOString().slice(0, 10)}: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; load average ${load0.map((x) => x.toFixed(2)).join(" ")} at the start and ${load1.map((x) => x.toFixed(2)).join(" ")} at the end (other work shared the machine). Workload as the paper's: devices wait U(1, 3) s after each answer, keep-alive, 10 000 pre-encoded \`paper\` records, spawn rate ${spec.base.spawnRate}/s; ${spec.base.warmupSeconds} s warm-up, ${spec.base.durationSeconds} s measured per cell (the paper ran longer). Target: the embedded CSE and the decoder (\`--replicas N\`, node:cluster on one port; the paper used nginx least_conn), group commit, forwarding to the CSE, all on this machine with the generator. In parentheses: the paper's published cell (Tables 3–5; FoM from Table 6). "of offered" = RPS / (devices / 2 s). e2e = ingest → contentInstance notification.`,
  "",
  markdownTable(results).trimEnd(),
  "",
  `1-minute load average as each cell ended (cells run in the order listed, on one stack per replica count), with the generator's own lateness: ${cellLoad.join("; ")}.`,
  "",
  ...targetCheck(results),
  ...(locust ? ["", ...locustTable(locust)] : []),
  MARK,
].join("\n");

const transportSection = [
  TRANSPORT_MARK,
  "### The same workload over HTTP, MQTT and CoAP",
  "",
  `\`npm run bench:paper\` on ${started.toISOString().slice(0, 10)} (${os.availableParallelism()} cores, load average ${load0.map((x) => x.toFixed(2)).join(" ")} → ${load1.map((x) => x.toFixed(2)).join(" ")}): Protobuf \`paper\` records, devices waiting U(1, 3) s after each acknowledgement, one decoder replica with its MQTT broker and CoAP server on, each transport on its own fresh stack; ${spec.base.warmupSeconds} s warm-up, ${spec.base.durationSeconds} s measured. Devices are MQTT.js connections (one per device, QoS 1: acknowledged = PUBACK) and npm \`coap\` confirmable requests (acknowledged = the piggybacked 2.01); both answers come after the durable commit, as HTTP's 201 does.`,
  "",
  transportTable(transportResults).trimEnd(),
  TRANSPORT_MARK,
].join("\n");

if (values.json) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
if (!values["no-write"]) {
  if (results.length) writeDocSection(MARK, section, DOC);
  if (transportResults.length) writeDocSection(TRANSPORT_MARK, transportSection, DOC);
  process.stderr.write(`bench:paper: wrote ${path.relative(ROOT, DOC)}\n`);
}
if (results.length) process.stdout.write(`${section}\n`);
if (transportResults.length) process.stdout.write(`${transportSection}\n`);
