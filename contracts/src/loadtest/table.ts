// Results as the paper printed them (Tables 3–6: RPS, mean and p95 response time, failures, FoM),
// with the paper's published cell beside ours; Markdown for docs and CSV for spreadsheets.
import { FORMAT_LABELS } from "#codecs";
import type { LoadTestResult } from "./result.ts";
import { describeWait } from "./spec.ts";

// the registry's labels, re-exported for the load-test pages that import them from here
export { FORMAT_LABELS };

export function replicasOf(r: LoadTestResult): number | null {
  const t = r.settings.target;
  return t.kind === "local" ? t.replicas : t.kind === "stack" ? (t.replicas ?? null) : null;
}

export function failurePercent(r: LoadTestResult): number {
  return r.requests.measured ? (r.requests.measuredFailed / r.requests.measured) * 100 : 0;
}

const n0 = (x: number) => Math.round(x).toLocaleString("en-US");
const n1 = (x: number) => x.toFixed(1);
const withPaper = (ours: string, paper: string | undefined) => (paper === undefined ? ours : `${ours} (${paper})`);

export interface TableRow {
  format: string;
  devices: number;
  instances: string;
  rps: string;
  offered: string;
  avgMs: string;
  p95Ms: string;
  failures: string;
  fom: string;
  e2eP95Ms: string;
  client: string;
}

export function tableRow(r: LoadTestResult): TableRow {
  const p = r.paper ?? undefined;
  const reps = replicasOf(r);
  return {
    format: FORMAT_LABELS[r.settings.format] ?? r.settings.format,
    devices: r.settings.devices,
    instances: reps === null ? "URL" : String(reps),
    rps: withPaper(n1(r.rps), p && n0(p.rps)),
    offered: r.offeredShare === null ? "–" : `${(r.offeredShare * 100).toFixed(1)} %`,
    avgMs: withPaper(n1(r.latency.avg), p && n0(p.avgMs)),
    p95Ms: withPaper(n1(r.latency.p95), p && n0(p.p95Ms)),
    failures: withPaper(`${failurePercent(r).toFixed(2)} %`, p && `${p.failuresPercent} %`),
    fom: withPaper(r.fom === null ? "–" : n0(r.fom), p?.fom === null || p === undefined ? undefined : n0(p.fom)),
    e2eP95Ms: r.endToEnd ? n1(r.endToEnd.p95) : "–",
    client: r.status !== "completed" ? r.status : r.client.valid ? "ok" : "client-limited",
  };
}

/** One Markdown table: ours, the paper's figure in parentheses where it published the same cell. */
export function markdownTable(results: readonly LoadTestResult[]): string {
  const head = [
    "format",
    "devices",
    "instances",
    "RPS (paper)",
    "of offered",
    "avg ms (paper)",
    "p95 ms (paper)",
    "failures (paper)",
    "FoM (paper)",
    "e2e p95 ms",
    "client",
  ];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i < 1 ? "---" : "---:")).join("|")}|`];
  for (const r of results) {
    const t = tableRow(r);
    lines.push(
      `| ${[t.format, t.devices, t.instances, t.rps, t.offered, t.avgMs, t.p95Ms, t.failures, t.fom, t.e2eP95Ms, t.client].join(" | ")} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const csvCell = (v: string | number | boolean | null) => {
  const s = v === null ? "" : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const CSV_COLUMNS = [
  "id",
  "started_at",
  "status",
  "layout",
  "format",
  "mode",
  "devices",
  "arrival_rate",
  "wait",
  "replicas",
  "target",
  "transport",
  "duration_s",
  "measured_s",
  "requests_measured",
  "failed_measured",
  "rps",
  "offered_rps",
  "success_rate",
  "latency_min_ms",
  "latency_p50_ms",
  "latency_avg_ms",
  "latency_p95_ms",
  "latency_p99_ms",
  "latency_max_ms",
  "failures_http",
  "failures_timeout",
  "failures_connection",
  "e2e_p50_ms",
  "e2e_p95_ms",
  "fom",
  "client_valid",
  "paper_rps",
  "paper_p95_ms",
  "paper_failures_percent",
  "paper_fom",
] as const;

/** One row per run; `ids` names each run (history ids), in order. */
export function resultsCsv(results: readonly LoadTestResult[], ids: readonly string[] = []): string {
  const rows = results.map((r, i) => {
    const s = r.settings;
    const values: (string | number | boolean | null)[] = [
      ids[i] ?? String(i + 1),
      r.startedAt,
      r.status,
      r.layout.name,
      s.format,
      s.mode,
      s.devices,
      s.arrivalRate ?? null,
      describeWait(s.wait),
      replicasOf(r),
      r.targetUrl,
      s.transport,
      s.durationSeconds,
      r.measuredSeconds,
      r.requests.measured,
      r.requests.measuredFailed,
      r.rps,
      r.offeredRps,
      r.successRate,
      r.latency.min,
      r.latency.p50,
      r.latency.avg,
      r.latency.p95,
      r.latency.p99,
      r.latency.max,
      Object.entries(r.failures.http)
        .map(([k, v]) => `${k}:${v}`)
        .join(" "),
      r.failures.timeout,
      r.failures.connection,
      r.endToEnd?.p50 ?? null,
      r.endToEnd?.p95 ?? null,
      r.fom,
      r.client.valid,
      r.paper?.rps ?? null,
      r.paper?.p95Ms ?? null,
      r.paper?.failuresPercent ?? null,
      r.paper?.fom ?? null,
    ];
    return values.map(csvCell).join(",");
  });
  return `${[CSV_COLUMNS.join(","), ...rows].join("\n")}\n`;
}
