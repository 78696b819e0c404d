// `npm run bench:ingest`: the open-loop maximum of the decoder (decode + durable persist + forward)
// next to a bare Node HTTP 200-OK server measured in the same run on the same machine, written into
// docs/benchmarks.md between the `<!-- ingest -->` markers.
//   npm run bench:ingest -- [--seconds 4] [--start 250] [--refine 3] [--formats cbor,msgpack,struct-zlib] [--no-write]
// --formats: the paper's other formats, each through the in-process stack as Protobuf is (its
// ceiling beside Protobuf's in the same run); "" measures Protobuf only.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { codecFor, FORMAT_LABELS, generateSamples, isFormatId, parseLayout, presetById, type FormatId } from "#codecs";
import { writeDocSection } from "#services/shared/docSection.ts";
import { CSE_ENTRY, DECODER_ENTRY, launch, repoRoot, stopChild, type Launched } from "#services/shared/launch.ts";
import { findMax, type StepResult, type Target } from "./openLoop.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "4" },
    start: { type: "string", default: "250" },
    refine: { type: "string", default: "3" },
    formats: { type: "string", default: "cbor,msgpack,struct-zlib" },
    "no-write": { type: "boolean", default: false },
  },
});
const SECONDS = Number(values.seconds);
const START = Number(values.start);
const REFINE = Number(values.refine);
const DOC = path.join(repoRoot, "docs/benchmarks.md");
const MARK = "<!-- ingest -->";

const FORMATS = values.formats
  .split(",")
  .map((f) => f.trim())
  .filter((f) => f !== "");
for (const f of FORMATS) if (!isFormatId(f)) throw new Error(`--formats: ${f} is not a format id`);

const paper = parseLayout(presetById("paper")!.layout);
const samples = generateSamples(paper, 1000, 1);
const poolOf = (format: FormatId) => samples.map((r) => codecFor(paper, format).encode(r));
const payloads = poolOf("protobuf");
const HEADERS = { "content-type": "application/x-protobuf", "x-satpayload-layout": "paper" };
/** what one format's records travel as: a pool of the paper's records in it, and the headers naming it */
interface Workload {
  payloads: Uint8Array[];
  headers: Record<string, string>;
}
const PROTOBUF: Workload = { payloads, headers: HEADERS };
const IN_PROCESS_ROW = "decoder + embedded CSE in one process";
const running: Launched[] = [];
const dirs: string[] = [];

async function start(entry: string, args: string[]): Promise<Launched> {
  const l = await launch(entry, args, { timeoutMs: 60_000, tieToParent: entry === DECODER_ENTRY });
  running.push(l);
  return l;
}

async function stopAll(): Promise<void> {
  for (const l of running.splice(0).reverse()) await stopChild(l.child, l.exited);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

function log(name: string) {
  return (s: StepResult) =>
    process.stderr.write(
      `${name.padEnd(34)} ${String(s.rate).padStart(6)}/s offered → ${s.achieved.toFixed(0).padStart(6)}/s ok, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms${s.failed ? `  ✗ ${s.failed}` : "  ✓"}\n`,
    );
}

interface Row {
  name: string;
  what: string;
  max: StepResult | null;
  /** set on the rows that repeat the in-process stack with another of the paper's formats */
  format?: FormatId;
}

async function stats(url: string): Promise<{ records: number; backlog: number; forwarded: number }> {
  return (await (await fetch(`${url}/api/stats`)).json()) as { records: number; backlog: number; forwarded: number };
}

async function drain(url: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if ((await stats(url)).backlog === 0) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** `cse`: the base URL to forward to, or "in-process" for the embedded CSE inside the decoder (--embedded-cse) */
async function measureDecoder(
  name: string,
  what: string,
  cse: string,
  replicas: number,
  work: Workload = PROTOBUF,
): Promise<Row> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-bench-ingest-"));
  dirs.push(dir);
  const cseArgs =
    cse === "in-process" ? ["--embedded-cse", "--cse-port", "0"] : ["--cse", cse, "--forward-concurrency", "16"];
  const d = await start(DECODER_ENTRY, [
    "--data-dir",
    dir,
    "--preset",
    "paper",
    ...cseArgs,
    "--container",
    "device",
    "--replicas",
    String(replicas),
    "--watch-stdin",
  ]);
  const url = d.listening.url;
  const t: Target = {
    url,
    path: "/ingest",
    headers: work.headers,
    body: (i) => work.payloads[i % work.payloads.length]!,
    // sustained means the CSE got what was acknowledged: after the step the backlog is gone within a second
    after: async (rate) => {
      const left = (await stats(url)).backlog;
      return (await drain(url, 1000))
        ? null
        : `forwarding fell behind (backlog ${left} at the end of the step, not gone 1 s later; offered ${rate}/s)`;
    },
  };
  const r = await findMax(t, {
    start: START,
    seconds: SECONDS,
    refine: REFINE,
    log: log(name),
    between: async () => void (await drain(url, 60_000)),
  });
  await stopChild(d.child, d.exited);
  running.splice(running.indexOf(d), 1);
  return { name, what, max: r.max };
}

async function main(): Promise<void> {
  const load0 = os.loadavg()[0]!;
  const rows: Row[] = [];
  try {
    const bare = await start(path.join(repoRoot, "bench/bareServer.ts"), []);
    const b = await findMax(
      { url: bare.listening.url, path: "/ingest", headers: HEADERS, body: (i) => payloads[i % payloads.length]! },
      { start: START, seconds: SECONDS, refine: REFINE, log: log("bare Node http 200 OK") },
    );
    rows.push({ name: "bare Node http server", what: "reads the body, answers 200 OK", max: b.max });

    const sink = await start(path.join(repoRoot, "bench/bareServer.ts"), ["--m2m"]);
    rows.push(
      await measureDecoder(
        "decoder → bare 201 sink",
        "decode, fsync'd group commit, forward to a sink that answers 201",
        `${sink.listening.url}/Mobius`,
        1,
      ),
    );

    const cseDir = mkdtempSync(path.join(os.tmpdir(), "satpayload-bench-cse-"));
    dirs.push(cseDir);
    const cse = await start(CSE_ENTRY, ["--port", "0", "--data-dir", cseDir]);
    rows.push(
      await measureDecoder(
        "decoder → embedded CSE",
        "the same, forwarding into the embedded CSE (its own process)",
        String(cse.listening.cseBaseUrl),
        1,
      ),
    );
    rows.push(
      await measureDecoder(
        "decoder ×2 replicas → embedded CSE",
        "2 cluster workers, one buffer each",
        String(cse.listening.cseBaseUrl),
        2,
      ),
    );
    rows.push(
      await measureDecoder(
        IN_PROCESS_ROW,
        "decode on the main thread; record and contentInstance in one fsync'd transaction on the writer thread, where the CSE runs (`--embedded-cse`, what `stack up` runs for one replica)",
        "in-process",
        1,
      ),
    );
    for (const format of FORMATS as FormatId[]) {
      const pool = poolOf(format);
      const sizes = pool.map((p) => p.length);
      rows.push({
        ...(await measureDecoder(
          `… the same with ${FORMAT_LABELS[format]}`,
          `the paper's record as ${FORMAT_LABELS[format]} (${Math.min(...sizes)}–${Math.max(...sizes)} B)`,
          "in-process",
          1,
          {
            payloads: pool,
            headers: {
              "content-type": "application/octet-stream",
              "x-satpayload-format": format,
              "x-satpayload-layout": "paper",
            },
          },
        )),
        format,
      });
    }
  } finally {
    await stopAll();
  }
  const base = rows[0]!.max?.rate ?? NaN;
  const when = new Date().toISOString().slice(0, 10);
  const cpu = os.cpus()[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU";
  const table = [
    "| target | what one request costs | open-loop max (req/s) | p50 at max | p99 at max | vs bare server |",
    "|---|---|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.what} | ${r.max ? r.max.rate.toLocaleString("en-US") : "below the start rate"} | ${r.max ? `${r.max.p50.toFixed(1)} ms` : "–"} | ${r.max ? `${r.max.p99.toFixed(1)} ms` : "–"} | ${r.max ? `${((r.max.rate / base) * 100).toFixed(0)} %` : "–"} |`,
    ),
  ].join("\n");
  // the issue's bar: each of the paper's formats within 15 % of Protobuf's ceiling, same stack, same run
  const protobufMax = rows.find((r) => r.name === IN_PROCESS_ROW)?.max?.rate;
  const others = rows.filter((r) => r.format !== undefined);
  const formatsLine = others.length
    ? `\nEnd-to-end ceiling of the paper's other formats through the in-process stack, as a share of Protobuf's in this run: ${others
        .map(
          (r) =>
            `${FORMAT_LABELS[r.format!]} ${r.max && protobufMax ? `${((r.max.rate / protobufMax) * 100).toFixed(0)} %` : "not measured"}`,
        )
        .join(
          ", ",
        )} (within 15 % of Protobuf's: ${others.every((r) => r.max && protobufMax && r.max.rate >= 0.85 * protobufMax) ? "yes" : "no"}).\n`
    : "";
  const section = `${MARK}
## Decoder ingest (\`npm run bench:ingest\`)

What it measures (\`bench/ingest.bench.ts\`): the highest rate each target sustains under
open-loop load — requests leave on a fixed schedule and latency counts from when a request was due,
so queueing shows. A rate counts as sustained when every request is answered 2xx, p99 stays under
250 ms and, for the decoder, forwarding keeps up (its backlog is gone within 1 s after the step).
After 2 s of unmeasured warm-up, steps of ${SECONDS} s double from ${START}/s until one fails, then ${REFINE} bisection steps. Each message is a
paper-preset Protobuf record (136–140 B; in the last rows the same records in the paper's other formats) with its own message id, over up to 256 keep-alive loopback
connections from one generator process. The decoder acknowledges only after its SQLite commit is
fsync'd (WAL, synchronous=FULL, group commit in a writer thread) and forwards every record as an
\`m2m:cin\`, one container per device (the 1 000 pooled records name 1 000 containers); in the last
row the CSE runs inside the decoder, on its writer thread, and the acknowledgement waits for the one
transaction that holds both the record and its contentInstance (acknowledged = in the CSE, so end
to end = ingest). The bare server is the ceiling of Node's HTTP stack on this
machine in the same run; the ratio says how much of it decode + durable persist + forward leaves.

Measured ${when} on ${os.cpus().length} × ${cpu}, Node ${process.version}, 1-min load average ${load0.toFixed(1)} at start
(other jobs shared the machine; numbers move with it).

${table}
${formatsLine}${MARK}`;
  process.stdout.write(`${table}\n${formatsLine}`);
  if (values["no-write"]) return;
  writeDocSection(MARK, section, DOC);
  process.stdout.write(`wrote the ingest section of ${path.relative(repoRoot, DOC)}\n`);
}

main().catch(async (e) => {
  process.stderr.write(`bench:ingest: ${(e as Error).stack ?? String(e)}\n`);
  await stopAll();
  process.exit(1);
});
