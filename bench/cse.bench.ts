// `npm run bench:cse`: contentInstance creates per second that the embedded CSE sustains over HTTP,
// the way the decoder's forwarder uses it (keep-alive connections, one paper record per instance,
// rn = message id), written into docs/benchmarks.md between the `<!-- cse -->` markers.
// The CSE runs as its own process (services/cse/main.ts, SQLite WAL in a temp dir), as in the
// stack; this process is the client. Then the decoder's in-process path: contentInstances created
// inside transactions the caller holds on the CSE's SQLite connection, no HTTP, µs per instance.
// Flags: --seconds N (per run, default 8), --no-write.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { generateSamples, paperPreset, parseLayout, toPlain } from "#codecs";
import { parseRequest } from "#services/cse/src/request.ts";
import { startCse } from "#services/cse/src/server.ts";
import { writeDocSection } from "#services/shared/docSection.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOC = path.join(ROOT, "docs/benchmarks.md");
const MARK = "<!-- cse -->";
const TARGET = 1000;

const { values: flags } = parseArgs({
  options: { seconds: { type: "string", default: "8" }, "no-write": { type: "boolean", default: false } },
});
const SECONDS = Number(flags.seconds);
if (!(SECONDS > 0)) throw new Error("--seconds must be positive");
const CONCURRENCY = [1, 8, 32];

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function post(url: URL, path: string, ty: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        headers: {
          "X-M2M-RI": "b",
          "X-M2M-Origin": "Cbench",
          "X-M2M-RVI": "3",
          "Content-Type": `application/json;ty=${ty}`,
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** CPU seconds the process has used (Linux /proc; clock ticks are 1/100 s there), undefined elsewhere */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

interface Run {
  label: string;
  /** creates per CPU-second of the CSE process: what it would do with a core to itself */
  perCpuSecond: number | undefined;
  concurrency: number;
  mni: number | undefined;
  rate: number;
  p50: number;
  p95: number;
  errors: number;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};

async function measure(
  url: URL,
  pid: number | undefined,
  label: string,
  concurrency: number,
  mni: number | undefined,
  records: string[],
): Promise<Run> {
  const cnt = `/Mobius/bench/${label}-${concurrency}`;
  const status = await post(
    url,
    "/Mobius/bench",
    3,
    JSON.stringify({ "m2m:cnt": { rn: `${label}-${concurrency}`, ...(mni === undefined ? {} : { mni }) } }),
  );
  if (status !== 201) throw new Error(`container create answered ${status}`);
  let seq = 0;
  let errors = 0;
  const latencies: number[] = [];
  const worker = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const id = seq++;
      const body = `{"m2m:cin":{"rn":"msg-${id}","cnf":"application/json:0","con":${records[id % records.length]}}}`;
      const t0 = performance.now();
      const s = await post(url, cnt, 4, body);
      if (record) {
        latencies.push(performance.now() - t0);
        if (s !== 201) errors++;
      }
    }
  };
  // one second of warm-up (JIT, SQLite page cache), then the measured run
  let until = performance.now() + 1000;
  await Promise.all(Array.from({ length: concurrency }, () => worker(until, false)));
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  until = t0 + SECONDS * 1000;
  await Promise.all(Array.from({ length: concurrency }, () => worker(until, true)));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds(pid);
  const perCpuSecond =
    cpu0 === undefined || cpu1 === undefined || cpu1 <= cpu0 ? undefined : latencies.length / (cpu1 - cpu0);
  return {
    label,
    perCpuSecond,
    concurrency,
    mni,
    rate: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    errors,
  };
}

interface InTransactionRun {
  /** wall-clock µs per instance inside the open transactions (commits excluded) */
  inTransactionUs: number;
  /** CPU µs of this process per instance, commits included */
  cpuUs: number;
}

const IN_TX = { containers: 1000, instances: 20_000, batch: 200 } as const;
let inTransactionRuns = 0;

/**
 * The decoder's in-process path: IN_TX.instances instances into IN_TX.containers containers, in
 * transactions of IN_TX.batch on a SQLite file (WAL, synchronous=NORMAL), notifications raised after
 * each commit, through the entry the decoder uses (createInstanceInOpenTransaction).
 */
async function measureInTransaction(dir: string, records: string[]): Promise<InTransactionRun> {
  const db = new Database(path.join(dir, `in-transaction-${++inTransactionRuns}.sqlite`));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const cse = await startCse({ connection: db, port: 0 });
  try {
    let ri = 0;
    const request = (at: string, body: string, ty: number) => {
      const headers: Record<string, string> = {
        "x-m2m-ri": `b${++ri}`,
        "x-m2m-origin": "Cbench",
        "x-m2m-rvi": "3",
        "content-type": `application/json;ty=${ty}`,
      };
      return parseRequest({ method: "POST", url: `/Mobius/${at}`, header: (n) => headers[n], body: Buffer.from(body) });
    };
    const ae = await cse.core.handle(
      request("", JSON.stringify({ "m2m:ae": { rn: "bench", api: "Nbench", rr: false, srv: ["3"] } }), 2),
    );
    if (ae.status !== 201) throw new Error(`AE create answered ${ae.status}`);
    for (let c = 0; c < IN_TX.containers; c++)
      if ((await cse.core.handle(request("bench", JSON.stringify({ "m2m:cnt": { rn: `d${c}` } }), 3))).status !== 201)
        throw new Error("container create failed");
    const create = (n: number): (() => void) => {
      const path = `bench/d${n % IN_TX.containers}`;
      const con = records[n % records.length]!;
      const rn = `msg-${n}`;
      return cse.core.createInstanceInOpenTransaction({
        path,
        originator: "Cbench",
        rn,
        cnf: "application/json:0",
        con,
      }).raise;
    };
    const begin = db.prepare("BEGIN IMMEDIATE");
    const commit = db.prepare("COMMIT");
    let inTransactionMs = 0;
    const cpu0 = process.cpuUsage();
    for (let first = 0; first < IN_TX.instances; first += IN_TX.batch) {
      const t0 = performance.now();
      begin.run();
      const raises: (() => void)[] = [];
      for (let n = first; n < first + IN_TX.batch; n++) raises.push(create(n));
      inTransactionMs += performance.now() - t0;
      commit.run();
      for (const raise of raises) raise();
    }
    const cpu = process.cpuUsage(cpu0);
    return {
      inTransactionUs: (inTransactionMs * 1000) / IN_TX.instances,
      cpuUs: (cpu.user + cpu.system) / IN_TX.instances,
    };
  } finally {
    await cse.close();
    db.close();
  }
}

async function main(): Promise<void> {
  const layout = parseLayout(paperPreset);
  const records = generateSamples(layout, 1000, 1).map((r) => JSON.stringify(toPlain(layout, r, "json")));
  const dir = mkdtempSync(path.join(os.tmpdir(), "cse-bench-"));
  const load = os.loadavg()[0]!;
  // node itself (not the tsx wrapper) so that child.pid is the process whose CPU time is read
  const child = spawn(process.execPath, ["--import", "tsx", "services/cse/main.ts", "--port", "0", "--data-dir", dir], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (c) => reject(new Error(`the CSE exited ${c}`)));
    });
    const url = new URL(JSON.parse(line).url);
    if (
      (await post(
        url,
        "/Mobius",
        2,
        JSON.stringify({ "m2m:ae": { rn: "bench", api: "Nbench", rr: false, srv: ["3"] } }),
      )) !== 201
    )
      throw new Error("AE create failed");
    const runs: Run[] = [];
    for (const c of CONCURRENCY) {
      runs.push(await measure(url, child.pid, "unbounded", c, undefined, records));
      console.log(`concurrency ${c}, Mobius default limits: ${runs.at(-1)!.rate.toFixed(0)} cin/s`);
    }
    // mni=1000: every create past the first thousand also deletes the oldest instance
    runs.push(await measure(url, child.pid, "trim", 8, 1000, records));
    console.log(`concurrency 8, mni=1000 (trimming): ${runs.at(-1)!.rate.toFixed(0)} cin/s`);
    const inTx: InTransactionRun[] = [];
    for (let round = 0; round < 2; round++) {
      inTx.push(await measureInTransaction(dir, records));
      console.log(
        `in transaction: ${inTx.at(-1)!.inTransactionUs.toFixed(1)} µs per instance (CPU with commits ${inTx.at(-1)!.cpuUs.toFixed(1)} µs)`,
      );
    }
    const best = Math.max(...runs.map((r) => r.rate));
    const meanBytes = records.reduce((s, r) => s + r.length, 0) / records.length;
    const section = [
      MARK,
      "## Embedded CSE (`npm run bench:cse`)",
      "",
      "What it measures (`bench/cse.bench.ts`): contentInstance creates per second over HTTP/1.1",
      "keep-alive against `services/cse/main.ts` running as its own process with its SQLite file (WAL,",
      `synchronous=NORMAL) in a temp dir; each instance carries one paper-preset record as JSON \`con\``,
      `(${meanBytes.toFixed(0)} bytes on average) named by a message id, as the decoder's forwarder sends them.`,
      "The client runs on the same machine and takes part of its CPU.",
      "",
      `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores, Node ${process.version}, 1-min load average ${load.toFixed(1)} at start; ${SECONDS} s per run after 1 s of warm-up.`,
      "",
      "| container | requests in flight | cin creates/s | per CPU-second of the CSE | p50 latency | p95 latency | errors |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...runs.map(
        (r) =>
          `| ${r.mni === undefined ? "Mobius default limits" : `mni=${r.mni} (trimming every create)`} | ${r.concurrency} | ${fmt(r.rate)} | ${r.perCpuSecond === undefined ? "n/a" : fmt(r.perCpuSecond)} | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ${r.errors} |`,
      ),
      "",
      '"Per CPU-second" divides the creates by the CPU time the CSE process used: what it does with a core to',
      "itself, while the wall-clock rate also depends on the client and on whatever else the machine runs.",
      "Several requests in flight share one SQLite commit (group commit, `Store.batched`).",
      "",
      `Target ≥ ${fmt(TARGET)} cin/s (the load test's rate): ${best >= TARGET ? "met" : "NOT met"} (best ${fmt(best)} cin/s wall clock).`,
      "",
      `In the decoder's process (\`--embedded-cse\`): ${fmt(IN_TX.instances)} instances into ${fmt(IN_TX.containers)} containers in transactions of ${IN_TX.batch}`,
      "held by the caller on the CSE's SQLite file (WAL, synchronous=NORMAL), no HTTP, through",
      "`core.createInstanceInOpenTransaction` with the fields the decoder has. Two rounds.",
      "",
      "| round | µs per instance in the transaction | CPU µs per instance, commits included |",
      "|---|---:|---:|",
      ...inTx.map((r, i) => `| ${i + 1} | ${r.inTransactionUs.toFixed(1)} | ${r.cpuUs.toFixed(1)} |`),
      MARK,
    ].join("\n");
    console.log(`\n${section}`);
    if (!flags["no-write"]) {
      writeDocSection(MARK, section, DOC);
      console.log(`wrote ${path.relative(ROOT, DOC)}`);
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r(null)));
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
