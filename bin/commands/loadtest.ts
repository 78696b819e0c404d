// `satpayload loadtest`: simulated device fleets against the local stack or any ingest URL, the
// paper's matrix, and the Locust/k6 export for runs beyond one machine.
import path from "node:path";
import { FORMAT_IDS } from "#codecs";
import type { LoadTestResult, Progress } from "#contracts/loadtest/result.ts";
import {
  runSettingsSchema,
  type RunSettings,
  type RunSettingsInput,
  type WaitDistribution,
} from "#contracts/loadtest/spec.ts";
import { markdownTable, replicasOf, resultsCsv } from "#contracts/loadtest/table.ts";
import { writeExportBundle } from "#services/loadgen/src/export.ts";
import { documentLayout, presetLayout, type RunLayout } from "#services/loadgen/src/layoutSource.ts";
import { runMatrix } from "#services/loadgen/src/matrix.ts";
import { runLoadTest } from "#services/loadgen/src/run.ts";
import {
  InputError,
  LAYOUT_FLAGS,
  parseFlags,
  parseFormat,
  parseFormats,
  readText,
  UsageError,
  write,
} from "./common.ts";

export const loadtestHelp = `satpayload loadtest [run] (--preset ID | --layout FILE) --format F [flags]
  Simulated devices (Locust semantics: send, wait for the answer, wait the think time) against a
  local stack started for the run (--replicas N, default 1) or any ingest URL (--url).
    --devices N           simulated devices (open mode: most requests in flight) (default 100)
    --wait MIN,MAX        think time U(MIN, MAX) s (default 1,3, the paper's); also const:S, exp:MEAN
    --mode closed|open    closed loop (default) or fixed arrival rate (--rate RPS)
    --spawn-rate N        devices started per second (default 100)
    --duration S          measured seconds (default 30)   --warmup S  unmeasured seconds after ramp-up (default 5)
    --connection keep-alive|close   one connection per device, or a new one per request
    --transport http|mqtt|coap   how devices send (default http): MQTT QoS 1 publish (a connection
                          per device) or CoAP confirmable POST to the local stack's decoder
    --timeout-ms MS  --pool-size N (default 10000)  --seed N  --workers N (generator threads)  --no-e2e
    --json                the whole result (schema satpayload.loadtest/1) on stdout
satpayload loadtest matrix (--preset ID | --layout FILE) --formats a,b --devices 100,300 --replicas 1,2 [flags]
  One run per cell on one local stack per replica count; prints the paper-shaped table (--csv, --json).
satpayload loadtest export --out DIR (--preset ID | --layout FILE) --format F [--url URL] [flags]
  Writes payload-pool.json, locustfile.py, k6-script.js and a README for Locust/k6 runs.
`;

const RUN_FLAGS = {
  ...LAYOUT_FLAGS,
  format: { type: "string" },
  devices: { type: "string" },
  wait: { type: "string" },
  mode: { type: "string" },
  rate: { type: "string" },
  "spawn-rate": { type: "string" },
  duration: { type: "string" },
  warmup: { type: "string" },
  connection: { type: "string" },
  transport: { type: "string" },
  "timeout-ms": { type: "string" },
  "pool-size": { type: "string" },
  seed: { type: "string" },
  workers: { type: "string" },
  "no-e2e": { type: "boolean", default: false },
  replicas: { type: "string" },
  url: { type: "string" },
  json: { type: "boolean", default: false },
  quiet: { type: "boolean", default: false },
} as const;

function num(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  if (v.trim() === "" || !Number.isFinite(n)) throw new UsageError(`${flag} must be a number, got "${v}"`);
  return n;
}

function list(v: string | undefined, flag: string): number[] | undefined {
  if (v === undefined) return undefined;
  return v.split(",").map((x) => {
    const n = Number(x.trim());
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`${flag} takes whole numbers ≥ 1 separated by commas, got "${v}"`);
    return n;
  });
}

function single(v: string | undefined, flag: string): number | undefined {
  const l = list(v, flag);
  if (l && l.length !== 1) throw new UsageError(`${flag} takes one number here (lists are for \`loadtest matrix\`)`);
  return l?.[0];
}

export function parseWait(v: string): WaitDistribution {
  const [kind, rest] = v.includes(":") ? (v.split(":", 2) as [string, string]) : ["uniform", v];
  const nums = rest.split(",").map((x) => Number(x.trim()));
  if (nums.some((n) => !Number.isFinite(n) || n < 0))
    throw new UsageError(`--wait "${v}": numbers of seconds ≥ 0 expected`);
  if (kind === "uniform" && nums.length === 2) return { kind: "uniform", min: nums[0]!, max: nums[1]! };
  if ((kind === "const" || kind === "constant") && nums.length === 1) return { kind: "constant", seconds: nums[0]! };
  if ((kind === "exp" || kind === "exponential") && nums.length === 1 && nums[0]! > 0)
    return { kind: "exponential", mean: nums[0]! };
  throw new UsageError(`--wait takes MIN,MAX (uniform), const:S or exp:MEAN, got "${v}"`);
}

type Flags = { [K in keyof typeof RUN_FLAGS]?: (typeof RUN_FLAGS)[K]["type"] extends "boolean" ? boolean : string };

/** the matrix reproduces the paper's HTTP tables and the exports are Locust/k6 HTTP scripts */
function httpOnly(f: Flags, command: string): void {
  if (f.transport !== undefined && f.transport !== "http")
    throw new UsageError(`${command} sends over HTTP; --transport ${f.transport} applies to loadtest run`);
}

function settingsInput(f: Flags, format: string | undefined): Omit<RunSettingsInput, "target"> {
  const out: Record<string, unknown> = {
    format,
    devices: single(f.devices, "--devices") ?? 100,
    wait: f.wait !== undefined ? parseWait(f.wait) : undefined,
    mode: f.mode,
    arrivalRate: num(f.rate, "--rate"),
    spawnRate: num(f["spawn-rate"], "--spawn-rate"),
    durationSeconds: num(f.duration, "--duration") ?? 30,
    warmupSeconds: num(f.warmup, "--warmup"),
    connection: f.connection,
    transport: f.transport,
    timeoutMs: num(f["timeout-ms"], "--timeout-ms"),
    poolSize: num(f["pool-size"], "--pool-size"),
    seed: num(f.seed, "--seed"),
    workers: num(f.workers, "--workers"),
    endToEnd: !f["no-e2e"],
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as Omit<RunSettingsInput, "target">;
}

function validated(input: RunSettingsInput): RunSettings {
  const r = runSettingsSchema.safeParse(input);
  if (!r.success)
    throw new UsageError(r.error.issues.map((i) => `${i.path.join(".") || "settings"}: ${i.message}`).join("; "));
  return r.data;
}

function layoutOf(f: Flags): RunLayout {
  if ((f.layout === undefined) === (f.preset === undefined))
    throw new UsageError("give exactly one of --layout FILE or --preset ID");
  if (f.preset !== undefined) {
    try {
      return presetLayout(f.preset);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(readText(f.layout!));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${f.layout}: not JSON (${(e as Error).message})`);
  }
  return documentLayout(json, path.basename(f.layout!).replace(/\.satlayout\.json$|\.json$/i, ""));
}

function target(f: Flags): RunSettingsInput["target"] {
  if (f.url !== undefined && f.replicas !== undefined)
    throw new UsageError("--url and --replicas exclude each other (replicas belong to the local stack)");
  return f.url !== undefined
    ? { kind: "url", url: f.url }
    : { kind: "local", replicas: single(f.replicas, "--replicas") ?? 1 };
}

function progressLine(p: Progress): string {
  const pt = p.point;
  const pct = `${Math.round(p.fraction * 100)}%`.padStart(4);
  if (!pt) return `${pct} ${p.phase}${p.message ? `: ${p.message}` : ""}`;
  return `${pct} ${p.phase.padEnd(7)} t=${pt.t.toFixed(0)}s  ${pt.rps.toFixed(0)} RPS  p95 ${pt.p95 === null ? "–" : `${pt.p95.toFixed(1)} ms`}  ${p.failures} failed  ${pt.activeDevices} devices`;
}

function humanSummary(r: LoadTestResult): string {
  const l = r.latency;
  const lines = [
    `${r.status}: ${r.layout.name}, ${r.settings.format}, ${r.settings.devices} devices → ${r.targetUrl}`,
    `  ${r.rps.toFixed(1)} RPS${r.offeredRps ? ` (${((r.offeredShare ?? 0) * 100).toFixed(1)} % of the offered ${r.offeredRps} RPS)` : ""}, success ${(r.successRate * 100).toFixed(2)} %, FoM ${r.fom ?? "–"}`,
    `  latency ms: min ${l.min}  p50 ${l.p50}  avg ${l.avg}  p95 ${l.p95}  p99 ${l.p99}  max ${l.max}  (${l.count} requests in ${r.measuredSeconds} s)`,
  ];
  const f = r.failures;
  const http = Object.entries(f.http).map(([k, v]) => `${k}×${v}`);
  if (http.length || f.timeout || f.connection)
    lines.push(
      `  failures: ${[...http, f.timeout ? `timeout×${f.timeout}` : "", f.connection ? `connection×${f.connection}` : ""].filter(Boolean).join(" ")}`,
    );
  if (r.endToEnd) lines.push(`  ingest → cin ms: p50 ${r.endToEnd.p50}  p95 ${r.endToEnd.p95}  max ${r.endToEnd.max}`);
  if (r.server)
    lines.push(`  decoder stored ${r.server.records}, forwarded ${r.server.forwarded}, rejected ${r.server.rejected}`);
  if (r.paper)
    lines.push(
      `  paper (${r.paper.source}): ${r.paper.rps} RPS, avg ${r.paper.avgMs} ms, p95 ${r.paper.p95Ms} ms, ${r.paper.failuresPercent} % failures, FoM ${r.paper.fom ?? "–"}`,
    );
  lines.push(`  client: ${r.client.valid ? "kept up" : `LIMITED THE RUN — ${r.client.reasons.join("; ")}`}`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return `${lines.join("\n")}\n`;
}

/** Ctrl-C cancels the run; the result so far is still printed. */
function cancellable(): AbortController {
  const ac = new AbortController();
  process.once("SIGINT", () => ac.abort());
  process.once("SIGTERM", () => ac.abort());
  return ac;
}

async function runCmd(argv: string[]): Promise<void> {
  const f = parseFlags(argv, RUN_FLAGS) as Flags;
  const settings = validated({ ...settingsInput(f, parseFormat(f.format)), target: target(f) });
  const layout = layoutOf(f);
  const ac = cancellable();
  try {
    const result = await runLoadTest({
      settings,
      layout,
      signal: ac.signal,
      onProgress: (p) => f.quiet || process.stderr.write(`${progressLine(p)}\n`),
    });
    write(f.json ? `${JSON.stringify(result, null, 2)}\n` : humanSummary(result));
  } finally {
    layout.dispose();
  }
}

async function matrixCmd(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    ...RUN_FLAGS,
    formats: { type: "string", multiple: true },
    csv: { type: "boolean", default: false },
  }) as Flags & { formats?: string[]; csv?: boolean };
  httpOnly(f, "loadtest matrix");
  if (f.url !== undefined)
    throw new UsageError("the matrix runs against local stacks (--replicas); use `loadtest run --url` for a URL");
  const formats = parseFormats(f.formats ?? (f.format ? [f.format] : ["protobuf,struct-zlib"]));
  const devices = list(f.devices, "--devices") ?? [100];
  const replicas = list(f.replicas, "--replicas") ?? [1];
  const base = settingsInput({ ...f, devices: undefined }, undefined);
  delete (base as Record<string, unknown>).format;
  delete (base as Record<string, unknown>).devices;
  for (const fmt of formats)
    for (const d of devices)
      for (const r of replicas) validated({ ...base, format: fmt, devices: d, target: { kind: "local", replicas: r } });
  const layout = layoutOf(f);
  const ac = cancellable();
  try {
    const results = await runMatrix(
      { layout, formats, devices, replicas, base },
      {
        signal: ac.signal,
        onCell: (r, i, n) =>
          f.quiet ||
          process.stderr.write(
            `[${i + 1}/${n}] ${r.settings.format} × ${r.settings.devices} devices × ${replicasOf(r)} replica(s): ${r.rps.toFixed(1)} RPS, p95 ${r.latency.p95} ms\n`,
          ),
      },
    );
    if (f.json) write(`${JSON.stringify({ schema: "satpayload.loadtest-matrix/1", results }, null, 2)}\n`);
    else write(f.csv ? resultsCsv(results) : markdownTable(results));
  } finally {
    layout.dispose();
  }
}

async function exportCmd(argv: string[]): Promise<void> {
  const f = parseFlags(argv, { ...RUN_FLAGS, out: { type: "string" } }) as Flags & { out?: string };
  httpOnly(f, "loadtest export");
  if (!f.out) throw new UsageError("--out DIR is required");
  const settings = validated({
    ...settingsInput(f, parseFormat(f.format)),
    target: f.url !== undefined ? { kind: "url", url: f.url } : { kind: "local", replicas: 1 },
  });
  const layout = layoutOf(f);
  try {
    const files = writeExportBundle(path.resolve(f.out), layout, settings);
    write(
      f.json
        ? `${JSON.stringify({ schema: "satpayload.loadtest-export/1", files }, null, 2)}\n`
        : `${files.join("\n")}\n`,
    );
  } finally {
    layout.dispose();
  }
}

export async function loadtestCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === "matrix") return matrixCmd(rest);
  if (sub === "export") return exportCmd(rest);
  if (sub === "run") return runCmd(rest);
  if (sub !== undefined && !sub.startsWith("-"))
    throw new UsageError(
      `unknown loadtest subcommand "${sub}" (run, matrix, export); formats: ${FORMAT_IDS.join(", ")}`,
    );
  return runCmd(argv);
}
