// `npm run bench:profile`: where the CPU of decoder → embedded CSE goes. Both processes run under
// V8's sampling profiler (--cpu-prof) while a fixed open-loop load of paper-preset Protobuf records
// goes through them and every record reaches the CSE; each profile is then folded into stages by
// the source file of the sampled function (its self time) and divided by the records carried.
//   npm run bench:profile -- [--rate 400] [--seconds 8] [--format protobuf] [--no-cpu-prof] [--write] [--keep DIR] [--in-process]
// --in-process: the decoder runs the embedded CSE in its own process (--embedded-cse, on the
// buffer's writer thread): one process, one transaction per commit, no HTTP between them; written between the <!-- profile-inprocess --> markers.
// --no-cpu-prof: only the per-thread CPU from /proc, without the profiler's own overhead.
// --write: the stage table goes into docs/benchmarks.md between the <!-- profile --> markers.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { codecFor, generateSamples, isFormatId, parseLayout, presetById } from "#codecs";
import { writeDocSection } from "#services/shared/docSection.ts";
import { CSE_ENTRY, DECODER_ENTRY, launch, repoRoot, stopChild } from "#services/shared/launch.ts";
import { step } from "./openLoop.ts";
import { STARTUP, stageOf } from "./stages.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "400" },
    seconds: { type: "string", default: "8" },
    keep: { type: "string" },
    format: { type: "string", default: "protobuf" },
    "no-cpu-prof": { type: "boolean", default: false },
    write: { type: "boolean", default: false },
    "in-process": { type: "boolean", default: false },
  },
});
const IN_PROCESS = values["in-process"];
const WHO = IN_PROCESS ? (["decoder"] as const) : (["decoder", "cse"] as const);
type Who = "decoder" | "cse";
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const DOC = path.join(repoRoot, "docs/benchmarks.md");
const MARK = IN_PROCESS ? "<!-- profile-inprocess -->" : "<!-- profile -->";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** self time (µs) per stage and per function, from the sample deltas; `busy` excludes (idle) */
function fold(p: Profile): { stages: Map<string, number>; functions: Map<string, number>; busy: number } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stages = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!)!;
    const dt = p.timeDeltas[i + 1] ?? 0;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === "(idle)") continue;
    const stack: Node["callFrame"][] = [];
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!.callFrame);
    const stage = stageOf(stack);
    busy += dt;
    stages.set(stage, (stages.get(stage) ?? 0) + dt);
    const key = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(node_modules|services|codecs)\//, "$1/")}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + dt);
  }
  return { stages, functions, busy };
}

interface Column {
  name: string;
  /** measured CPU of the thread (µs) */
  cpu: number;
  stages: Map<string, number>;
}

/**
 * µs per record per stage: each profiled thread's sampled time split by stage, scaled to the CPU
 * /proc measured for that thread (samples also fall while a thread waits, e.g. in fsync, or is
 * descheduled on a loaded machine: the profile says where, /proc says how much). The decoder's
 * writer thread is its busiest thread besides the main one; threads without a profile (libuv's
 * pool, V8's GC helpers) are one row.
 */
function breakdown(
  profDir: string,
  cpu: Partial<Record<Who, [string, number][]>>,
  carried: number,
): { text: string; top: string[] } {
  const columns: Column[] = [];
  const top: string[] = [];
  let unprofiled = 0;
  let profiler = 0;
  for (const who of WHO) {
    const threads = cpu[who] ?? [];
    const main = threads.find(([k]) => k.endsWith("#main"))?.[1] ?? 0;
    const others = threads.filter(([k]) => !k.endsWith("#main") && !k.startsWith("v8:"));
    let accounted = main;
    for (const f of readdirSync(path.join(profDir, who)).filter((x) => x.endsWith(".cpuprofile"))) {
      const p = JSON.parse(readFileSync(path.join(profDir, who, f), "utf8")) as Profile;
      const { stages, functions, busy } = fold(p);
      const isMain = /\.0\.\d+\.cpuprofile$/.test(f);
      const isWriter = p.nodes.some((n) =>
        /buffer\/writerThread\.ts|embedded\/cseWriterThread\.ts/.test(n.callFrame.url),
      );
      if (!isMain && !isWriter) continue;
      const threadCpu = isMain ? main : (others[0]?.[1] ?? 0);
      if (!isMain) accounted += threadCpu;
      // module loading happened before the /proc window opened: its samples are not in threadCpu
      const startup = stages.get(STARTUP) ?? 0;
      stages.delete(STARTUP);
      const scaled = new Map([...stages].map(([k, v]) => [k, (v / (busy - startup)) * threadCpu]));
      columns.push({ name: `${who} ${isMain ? "main thread" : "writer thread"}`, cpu: threadCpu, stages: scaled });
      top.push(`${who} ${isMain ? "main" : "writer"}: busiest functions (self, share of sampled time)`);
      for (const [k, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 12))
        top.push(`  ${((us / busy) * 100).toFixed(1).padStart(5)} %  ${k}`);
    }
    const ofProfiler = threads.filter(([k]) => k.startsWith("v8:")).reduce((a, [, v]) => a + v, 0);
    profiler += ofProfiler;
    unprofiled += threads.reduce((a, [, v]) => a + v, 0) - accounted - ofProfiler;
  }
  const names = [...new Set(columns.flatMap((c) => [...c.stages.keys()]))];
  const rowTotal = (n: string) => columns.reduce((a, c) => a + (c.stages.get(n) ?? 0), 0);
  names.sort((a, b) => rowTotal(b) - rowTotal(a));
  const f = (us: number) => (us / carried).toFixed(0);
  const total = columns.reduce((a, c) => a + c.cpu, 0) + unprofiled + profiler;
  const text = [
    `| stage | ${columns.map((c) => c.name).join(" | ")} | all |`,
    `|---|${columns.map(() => "---:|").join("")}---:|`,
    ...names.map((n) => `| ${n} | ${columns.map((c) => f(c.stages.get(n) ?? 0)).join(" | ")} | ${f(rowTotal(n))} |`),
    `| other threads of ${IN_PROCESS ? "the process" : "both processes"} (V8 platform/GC helpers, libuv pool; not profiled) | ${columns.map(() => "").join(" | ")} | ${f(unprofiled)} |`,
    `| the profiler's own threads (absent without --cpu-prof) | ${columns.map(() => "").join(" | ")} | ${f(profiler)} |`,
    `| **total CPU per record** | ${columns.map((c) => `**${f(c.cpu)}**`).join(" | ")} | **${f(total)}** |`,
  ].join("\n");
  return { text, top };
}

function writeSection(
  table: string,
  m: {
    format: string;
    load0: number;
    rate: number;
    seconds: number;
    carried: number;
    p50: number;
    p99: number;
    /** KiB each process had written to storage per record */
    writtenKiB: string;
    generatorUs: number;
  },
): void {
  const cpuModel = os.cpus()[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU";
  const section = `${MARK}
${
  IN_PROCESS
    ? `### The same with the CSE inside the decoder (\`npm run bench:profile -- --in-process\`)

The decoder started with \`--embedded-cse\` (what \`stack up\` runs for one replica): one process, the
CSE on the buffer's writer thread, each group commit one transaction there that stores the records
and creates their contentInstances, no forwarder and no HTTP between decoder and CSE. Under V8's sampling profiler (\`node --cpu-prof\`), while`
    : `## Where the CPU goes: decoder → embedded CSE (\`npm run bench:profile\`)

What it measures (\`bench/profile.bench.ts\`): the decoder (one worker) and the embedded CSE
run as in \`bench:ingest\` (separate processes, per-device containers), each under V8's sampling
profiler (\`node --cpu-prof\`), while`
} ${m.rate} paper-preset ${m.format} records/s arrive for ${m.seconds} s and every one of them
reaches the CSE. Each thread's CPU (user + system, from \`/proc\`) is divided by the ${m.carried.toLocaleString("en-US")} records carried and split
by stage in the proportions of that thread's profile; a sample counts for the nearest frame that
names a stage, so Node's socket and stream work is charged to the HTTP client, server or handler
that caused it, and SQLite's native work to the store call that ran it. The profiler costs a few
percent: its threads are a row of their own, and the main threads run a little slower under it. Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${cpuModel}, Node ${process.version}, 1-min
load average ${m.load0.toFixed(1)} at start; ingest p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms. Written to storage
(\`write_bytes\` in \`/proc\`: WAL, checkpoints, journal) per record: ${m.writtenKiB}. The load generator, on the
same machine, spent ${m.generatorUs.toFixed(0)} µs of CPU per request.

µs of CPU per record:

${table}
${MARK}`;
  writeDocSection(MARK, section, DOC);
  process.stdout.write(`wrote the profile section of ${path.relative(repoRoot, DOC)}\n`);
}

const TICK_US = 10_000; // USER_HZ 100 on Linux

/** CPU (user + system, µs) of each thread of a process, from /proc: real CPU, unlike the sampled profile */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const us = (Number(f[11]) + Number(f[12])) * TICK_US;
      out.set(`${name}#${tid === String(pid) ? "main" : tid}`, us);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** bytes a process caused to be written to storage (WAL, checkpoints, journal), from /proc */
function writtenBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/io`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("write_bytes:"));
  return Number(line?.split(":")[1] ?? NaN);
}

function cpuDelta(before: Map<string, number>, after: Map<string, number>): [string, number][] {
  return [...after]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as [string, number])
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<void> {
  const paper = parseLayout(presetById("paper")!.layout);
  const format = values.format;
  if (!isFormatId(format)) throw new Error(`--format ${format} is not a format id`);
  const payloads = generateSamples(paper, 1000, 1).map((r) => codecFor(paper, format).encode(r));
  const profDir = values.keep ?? mkdtempSync(path.join(os.tmpdir(), "satpayload-prof-"));
  const cseDir = mkdtempSync(path.join(os.tmpdir(), "satpayload-prof-cse-"));
  const decDir = mkdtempSync(path.join(os.tmpdir(), "satpayload-prof-dec-"));
  const nodeArgs = (who: string) =>
    values["no-cpu-prof"] ? [] : ["--cpu-prof", `--cpu-prof-dir=${path.join(profDir, who)}`];
  const load0 = os.loadavg()[0]!;
  const cse = IN_PROCESS
    ? undefined
    : await launch(CSE_ENTRY, ["--port", "0", "--data-dir", cseDir], { nodeArgs: nodeArgs("cse"), timeoutMs: 60_000 });
  const cseArgs = cse
    ? ["--cse", String(cse.listening.cseBaseUrl), "--forward-concurrency", "16"]
    : ["--embedded-cse", "--cse-port", "0"];
  const dec = await launch(
    DECODER_ENTRY,
    [
      "--data-dir",
      decDir,
      "--preset",
      "paper",
      ...cseArgs,
      "--container",
      "device",
      "--replicas",
      "1",
      "--watch-stdin",
    ],
    {
      nodeArgs: nodeArgs("decoder"),
      timeoutMs: 60_000,
      tieToParent: true,
    },
  );
  const url = dec.listening.url;
  const stats = async () =>
    (await (await fetch(`${url}/api/stats`)).json()) as { records: number; backlog: number; forwarded: number };
  const headers = {
    "content-type": "application/octet-stream",
    "x-satpayload-format": format,
    "x-satpayload-layout": "paper",
  };
  let carried = 0;
  let result;
  const t0 = performance.now();
  const pids: Partial<Record<Who, number>> = { decoder: dec.child.pid!, ...(cse ? { cse: cse.child.pid! } : {}) };
  const sample = () =>
    Object.fromEntries(WHO.map((w) => [w, threadCpu(pids[w]!)])) as Partial<Record<Who, Map<string, number>>>;
  const sampleWritten = () => Object.fromEntries(WHO.map((w) => [w, writtenBytes(pids[w]!)])) as Record<Who, number>;
  const before = sample();
  const writtenBefore = sampleWritten();
  const generatorBefore = process.cpuUsage();
  let after = before;
  let writtenAfter = writtenBefore;
  let generatorUs = 0;
  try {
    result = await step(
      { url, path: "/ingest", headers, body: (i) => payloads[i % payloads.length]! },
      RATE,
      SECONDS,
      "prof",
    );
    while ((await stats()).backlog > 0) await new Promise((r) => setTimeout(r, 200));
    carried = (await stats()).forwarded;
    after = sample();
    writtenAfter = sampleWritten();
    const g = process.cpuUsage(generatorBefore);
    generatorUs = g.user + g.system;
  } finally {
    await stopChild(dec.child, dec.exited);
    if (cse) await stopChild(cse.child, cse.exited);
  }
  const wall = (performance.now() - t0) / 1000;
  process.stdout.write(
    `${format}: offered ${RATE}/s for ${SECONDS} s: ${result.ok} acknowledged (p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms), ${carried} forwarded, drained after ${wall.toFixed(1)} s; load average ${load0.toFixed(1)}\n`,
  );
  const cpu = Object.fromEntries(WHO.map((w) => [w, cpuDelta(before[w]!, after[w]!)])) as Partial<
    Record<Who, [string, number][]>
  >;
  const written = (who: Who) => `${((writtenAfter[who] - writtenBefore[who]) / carried / 1024).toFixed(1)} KiB`;
  for (const who of WHO) {
    const sum = cpu[who]!.reduce((a, [, v]) => a + v, 0);
    process.stdout.write(
      `${who}: ${(sum / carried).toFixed(0)} µs CPU per record (user+sys from /proc)${cpu[who]!.map(([k, v]) => `; ${k} ${(v / carried).toFixed(0)}`).join("")}; ${written(who)} written to storage per record\n`,
    );
  }
  // the load generator shares the machine: what it costs bounds what is left for the stack
  const generatorPerRequest = generatorUs / result.offered;
  process.stdout.write(`load generator (this process): ${generatorPerRequest.toFixed(0)} µs CPU per request\n`);
  if (!values["no-cpu-prof"]) {
    const table = breakdown(profDir, cpu, carried);
    process.stdout.write(`\n${table.text}\n`);
    for (const line of table.top) process.stdout.write(`${line}\n`);
    if (values.write)
      writeSection(table.text, {
        format,
        load0,
        rate: RATE,
        seconds: SECONDS,
        carried,
        p50: result.p50,
        p99: result.p99,
        writtenKiB: WHO.map((w) => `${w} ${written(w)}`).join(", "),
        generatorUs: generatorPerRequest,
      });
  }
  if (!values.keep) rmSync(profDir, { recursive: true, force: true });
  rmSync(cseDir, { recursive: true, force: true });
  rmSync(decDir, { recursive: true, force: true });
}

main().catch((e) => {
  process.stderr.write(`bench:profile: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
