// `npm run bench:profile`: where the CPU of decoder → embedded CSE goes. Both processes run under
// V8's sampling profiler (--cpu-prof) while a fixed open-loop load of paper-preset Protobuf records
// goes through them and every record reaches the CSE; each profile is then folded into stages by
// the source file of the sampled function (its self time) and divided by the records carried.
//   npm run bench:profile -- [--rate 400] [--seconds 8] [--keep DIR]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { codecFor } from "../../codecs/src/formats/registry.ts";
import { parseLayout } from "../../codecs/src/layout/validate.ts";
import { presetById } from "../../codecs/src/presets/index.ts";
import { generateSamples } from "../../codecs/src/samples/generate.ts";
import { CSE_ENTRY, DECODER_ENTRY, launch, repoRoot, stopChild } from "../shared/launch.ts";
import { step } from "./openLoop.ts";
import { stageOf, type Stage } from "./stages.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "400" },
    seconds: { type: "string", default: "8" },
    keep: { type: "string" },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** self time (µs) per stage, from the sample deltas (exact even where the interval drifts) */
function fold(p: Profile): { stages: Map<Stage, number>; functions: Map<string, number>; total: number } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const stages = new Map<Stage, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!)!;
    const dt = p.timeDeltas[i + 1] ?? 0;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === "(idle)") continue;
    const stage = stageOf(functionName, url);
    total += dt;
    stages.set(stage, (stages.get(stage) ?? 0) + dt);
    const key = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(node_modules|services|codecs|node:)/, "$1")}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + dt);
  }
  return { stages, functions, total };
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

function cpuDelta(before: Map<string, number>, after: Map<string, number>): [string, number][] {
  return [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as [string, number]).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<void> {
  const paper = parseLayout(presetById("paper")!.layout);
  const payloads = generateSamples(paper, 1000, 1).map((r) => codecFor(paper, "protobuf").encode(r));
  const profDir = values.keep ?? mkdtempSync(path.join(os.tmpdir(), "satpayload-prof-"));
  const cseDir = mkdtempSync(path.join(os.tmpdir(), "satpayload-prof-cse-"));
  const decDir = mkdtempSync(path.join(os.tmpdir(), "satpayload-prof-dec-"));
  const nodeArgs = (who: string) => ["--cpu-prof", `--cpu-prof-dir=${path.join(profDir, who)}`];
  const load0 = os.loadavg()[0]!;
  const cse = await launch(CSE_ENTRY, ["--port", "0", "--data-dir", cseDir], { nodeArgs: nodeArgs("cse"), timeoutMs: 60_000 });
  const dec = await launch(DECODER_ENTRY, ["--data-dir", decDir, "--preset", "paper", "--cse", String(cse.listening.cseBaseUrl), "--container", "device", "--replicas", "1", "--forward-concurrency", "16", "--watch-stdin"], {
    nodeArgs: nodeArgs("decoder"),
    timeoutMs: 60_000,
    tieToParent: true,
  });
  const url = dec.listening.url;
  const stats = async () => (await (await fetch(`${url}/api/stats`)).json()) as { records: number; backlog: number; forwarded: number };
  const headers = { "content-type": "application/x-protobuf", "x-satpayload-layout": "paper" };
  let carried = 0;
  let result;
  const t0 = performance.now();
  const pids = { decoder: dec.child.pid!, cse: cse.child.pid! };
  const before = { decoder: threadCpu(pids.decoder), cse: threadCpu(pids.cse) };
  let after = before;
  try {
    result = await step({ url, path: "/ingest", headers, body: (i) => payloads[i % payloads.length]! }, RATE, SECONDS, "prof");
    while ((await stats()).backlog > 0) await new Promise((r) => setTimeout(r, 200));
    carried = (await stats()).forwarded;
    after = { decoder: threadCpu(pids.decoder), cse: threadCpu(pids.cse) };
  } finally {
    await stopChild(dec.child, dec.exited);
    await stopChild(cse.child, cse.exited);
  }
  const wall = (performance.now() - t0) / 1000;
  process.stdout.write(`offered ${RATE}/s for ${SECONDS} s: ${result.ok} acknowledged (p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms), ${carried} forwarded, drained after ${wall.toFixed(1)} s; load average ${load0.toFixed(1)}\n`);
  for (const who of ["decoder", "cse"] as const) {
    const threads = cpuDelta(before[who], after[who]);
    const sum = threads.reduce((a, [, v]) => a + v, 0);
    process.stdout.write(`${who}: ${(sum / carried).toFixed(0)} µs CPU per record (user+sys from /proc)${threads.map(([k, v]) => `; ${k} ${(v / carried).toFixed(0)}`).join("")}\n`);
  }
  for (const who of ["decoder", "cse"]) {
    const dir = path.join(profDir, who);
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".cpuprofile"))) {
      const { stages, functions, total } = fold(JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Profile);
      if (total < 1000) continue;
      process.stdout.write(`\n${who} ${f}: ${(total / carried).toFixed(0)} µs CPU per record (busy ${(total / 1e6).toFixed(2)} s)\n`);
      for (const [s, us] of [...stages].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${s.padEnd(34)} ${(us / carried).toFixed(1).padStart(7)} µs\n`);
      process.stdout.write("  top functions (self):\n");
      for (const [k, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 25)) process.stdout.write(`    ${(us / carried).toFixed(1).padStart(7)} µs  ${k}\n`);
    }
  }
  if (!values.keep) rmSync(profDir, { recursive: true, force: true });
  rmSync(cseDir, { recursive: true, force: true });
  rmSync(decDir, { recursive: true, force: true });
  void repoRoot;
}

main().catch((e) => {
  process.stderr.write(`bench:profile: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
