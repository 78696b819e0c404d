// bench:paper's Locust comparison: the exported locustfile.py (what `satpayload loadtest --export`
// writes), headless with the paper's 2000 users, once against a bare Node server answering 200 (the
// control: Locust's own ceiling on this machine) and once against the local stack, in one run.
// RPS and p95 are Locust's own figures (its --json-file stats), not ours.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runSettingsSchema } from "#contracts/loadtest/spec.ts";
import { PAPER_WORKLOAD } from "#planning/paper";
import { writeExportBundle } from "#services/loadgen/src/export.ts";
import { presetLayout } from "#services/loadgen/src/layoutSource.ts";
import { startLocalStack } from "#services/loadgen/src/stack.ts";
import { launch, repoRoot, stopChild } from "#services/shared/launch.ts";

export interface LocustResult {
  target: string;
  requests: number;
  failures: number;
  rps: number;
  p50: number;
  p95: number;
}

export interface LocustComparison {
  users: number;
  spawnRate: number;
  seconds: number;
  control: LocustResult;
  stack: LocustResult;
  /** records the stack stored and that reached the CSE during the Locust run (backlog drained) */
  stored: number;
  drained: boolean;
}

/** Locust's stats entry as its --json-file writes it (Locust 2.x) */
interface LocustStats {
  name: string;
  num_requests: number;
  num_failures: number;
  start_time: number;
  last_request_timestamp: number;
  /** response time (ms, rounded as Locust rounds them) → count */
  response_times: Record<string, number>;
}

/** Locust's percentile: the smallest recorded response time at or above the share of requests */
function percentile(times: Record<string, number>, share: number): number {
  const entries = Object.entries(times)
    .map(([ms, n]) => [Number(ms), n] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((a, [, n]) => a + n, 0);
  let seen = 0;
  for (const [ms, n] of entries) {
    seen += n;
    if (seen >= total * share) return ms;
  }
  return NaN;
}

function runLocust(
  dir: string,
  host: string,
  users: number,
  spawnRate: number,
  seconds: number,
): Promise<LocustStats[]> {
  const locust = path.join(repoRoot, ".venv/bin/locust");
  if (!existsSync(locust))
    throw new Error(`${locust} is missing: Locust comes with the repository's .venv (.ci/setup-python.sh)`);
  const prefix = path.join(dir, `run-${Date.now()}`);
  // the users start over users/spawnRate s; --reset-stats drops what was counted until then
  const total = Math.ceil(users / spawnRate) + seconds;
  const args = [
    "-f",
    path.join(dir, "locustfile.py"),
    "--headless",
    "-u",
    String(users),
    "-r",
    String(spawnRate),
    "-t",
    `${total}s`,
    "--reset-stats",
    "--stop-timeout",
    "10",
    "--host",
    host,
    "--json-file",
    prefix,
    "--only-summary",
    "--loglevel",
    "WARNING",
  ];
  return new Promise((resolve, reject) => {
    execFile(
      locust,
      args,
      {
        cwd: dir,
        timeout: (total + 60) * 1000,
        env: { ...process.env, PYTHONUNBUFFERED: "1" },
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, _stdout, stderr) => {
        // Locust exits 1 when any request failed; the stats file says how many
        if (!existsSync(`${prefix}.json`))
          return reject(new Error(`locust wrote no stats (${err?.message ?? "no error"}): ${stderr.slice(-1500)}`));
        resolve(JSON.parse(readFileSync(`${prefix}.json`, "utf8")) as LocustStats[]);
      },
    );
  });
}

function summarise(target: string, stats: LocustStats[]): LocustResult {
  const requests = stats.reduce((a, s) => a + s.num_requests, 0);
  const failures = stats.reduce((a, s) => a + s.num_failures, 0);
  const times: Record<string, number> = {};
  for (const s of stats) for (const [ms, n] of Object.entries(s.response_times)) times[ms] = (times[ms] ?? 0) + n;
  const start = Math.min(...stats.map((s) => s.start_time));
  const end = Math.max(...stats.map((s) => s.last_request_timestamp));
  return {
    target,
    requests,
    failures,
    rps: end > start ? requests / (end - start) : 0,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
  };
}

export async function compareWithLocust(o: {
  users: number;
  spawnRate: number;
  seconds: number;
  format: "protobuf";
  log: (m: string) => void;
}): Promise<LocustComparison> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-locust-"));
  const layout = presetLayout("paper");
  try {
    const settings = runSettingsSchema.parse({
      format: o.format,
      devices: o.users,
      wait: { kind: "uniform", min: PAPER_WORKLOAD.waitMinSeconds, max: PAPER_WORKLOAD.waitMaxSeconds },
      spawnRate: o.spawnRate,
      durationSeconds: o.seconds,
      poolSize: PAPER_WORKLOAD.poolSize,
      target: { kind: "local", replicas: 1 },
    });
    writeExportBundle(dir, layout, settings);

    const bare = await launch(path.join(repoRoot, "bench/bareServer.ts"), [], { timeoutMs: 60_000 });
    let control: LocustResult;
    try {
      control = summarise(
        "bare Node http server (control)",
        await runLocust(dir, bare.listening.url, o.users, o.spawnRate, o.seconds),
      );
    } finally {
      await stopChild(bare.child, bare.exited);
    }
    o.log(`  locust → bare server: ${control.rps.toFixed(1)} RPS, p95 ${control.p95} ms, ${control.failures} failures`);

    const stack = await startLocalStack({ replicas: 1, layoutArgs: layout.decoderArgs });
    try {
      const before = await stack.stats();
      const result = summarise(
        "the stack (1 decoder, the embedded CSE in its process)",
        await runLocust(dir, stack.decoderUrl, o.users, o.spawnRate, o.seconds),
      );
      const drained = await stack.drained(60_000);
      const after = await stack.stats();
      o.log(
        `  locust → stack: ${result.rps.toFixed(1)} RPS, p95 ${result.p95} ms, ${result.failures} failures; ${after.forwarded - before.forwarded} records in the CSE`,
      );
      return {
        users: o.users,
        spawnRate: o.spawnRate,
        seconds: o.seconds,
        control,
        stack: result,
        stored: after.forwarded - before.forwarded,
        drained,
      };
    } finally {
      await stack.stop();
    }
  } finally {
    layout.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The markdown lines: both runs side by side, and the targets (RPS within 5 %, p95 within +50 ms of the control). */
export function locustTable(c: LocustComparison): string[] {
  const row = (r: LocustResult) =>
    `| ${r.target} | ${r.rps.toFixed(1)} | ${r.p50} ms | ${r.p95} ms | ${r.requests.toLocaleString("en-US")} | ${r.failures} |`;
  const ratio = c.stack.rps / c.control.rps;
  const p95Delta = c.stack.p95 - c.control.p95;
  const rpsOk = ratio >= 0.95;
  const p95Ok = p95Delta <= 50;
  return [
    `Locust ${c.users} users (the exported \`locustfile.py\`, headless, spawn ${c.spawnRate}/s, U(1, 3) s wait, ${c.seconds} s measured after the ramp, \`--reset-stats\`); RPS and percentiles are Locust's own:`,
    "",
    "| Locust target | RPS | p50 | p95 | requests | failures |",
    "|---|---:|---:|---:|---:|---:|",
    row(c.control),
    row(c.stack),
    "",
    `- stack / control RPS: ${(ratio * 100).toFixed(1)} % (target ≥ 95 %: ${rpsOk ? "**met**" : "**missed**"}); p95 ${p95Delta >= 0 ? "+" : ""}${p95Delta} ms over the control (target ≤ +50 ms: ${p95Ok ? "**met**" : "**missed**"}); ${c.stored.toLocaleString("en-US")} records reached the CSE, backlog ${c.drained ? "0" : "NOT drained 60 s later"}.`,
  ];
}
