// Load-test history in the projects database: one row per run, the settings from the start, the
// summary (for lists) and the whole result (for detail, compare and export) once it ends.
import type Database from "better-sqlite3";
import type { LoadTestResult } from "#contracts/loadtest/result.ts";
import { isPaperWorkload, type RunSettings } from "#contracts/loadtest/spec.ts";
import { failurePercent } from "#contracts/loadtest/table.ts";
import type { LoadTestRun, LoadTestSummary } from "../api/loadtest.ts";
import { HostError } from "../errors.ts";

/** the project of a run, kept in its summary document (runs from before it was recorded have none) */
function projectOf(summary: string | null): string | null {
  if (!summary) return null;
  const p = (JSON.parse(summary) as { projectId?: unknown }).projectId;
  return typeof p === "string" ? p : null;
}

function parseSummary(text: string): LoadTestSummary {
  const s = JSON.parse(text) as LoadTestSummary;
  return { ...s, projectId: s.projectId ?? null, transport: s.transport ?? "http" };
}

interface Row {
  id: string;
  started_at: string;
  finished_at: string | null;
  status: LoadTestSummary["status"];
  layout_name: string;
  settings: string;
  summary: string | null;
  error: string | null;
}

/** Which stack (or URL) a run sent to, as the history and the run card say it. */
export function targetLabel(t: RunSettings["target"]): string {
  if (t.kind === "local") return `new stack for this run × ${t.replicas}`;
  if (t.kind === "stack")
    return `running stack × ${t.replicas ?? "?"} at ${t.decoderUrl ? new URL(t.decoderUrl).host : "?"}`;
  return t.url;
}

export function summaryOf(
  base: { id: string; startedAt: string; layoutName: string; projectId: string | null; settings: RunSettings },
  result: LoadTestResult | null,
  status: LoadTestSummary["status"],
  finishedAt: string | null,
  error: string | null,
): LoadTestSummary {
  const s = base.settings;
  return {
    id: base.id,
    status,
    startedAt: base.startedAt,
    finishedAt,
    layoutName: base.layoutName,
    projectId: base.projectId,
    format: s.format,
    transport: s.transport,
    mode: s.mode,
    devices: s.devices,
    replicas:
      s.target.kind === "local" ? s.target.replicas : s.target.kind === "stack" ? (s.target.replicas ?? null) : null,
    target: targetLabel(s.target),
    durationSeconds: s.durationSeconds,
    rps: result ? result.rps : null,
    p95Ms: result && result.latency.count ? result.latency.p95 : null,
    failurePercent: result ? Math.round(failurePercent(result) * 1000) / 1000 : null,
    fom: result ? result.fom : null,
    paperWorkload: isPaperWorkload(s),
    valid: result ? result.client.valid : null,
    error,
  };
}

export class LoadTestStore {
  private readonly q;

  constructor(private readonly db: Database.Database) {
    this.q = {
      insert: db.prepare(
        "INSERT INTO loadtest_runs (id, started_at, status, layout_name, settings, summary) VALUES (?, ?, 'running', ?, ?, ?)",
      ),
      finish: db.prepare(
        "UPDATE loadtest_runs SET status = ?, finished_at = ?, summary = ?, result = ?, error = ? WHERE id = ?",
      ),
      list: db.prepare(
        "SELECT id, started_at, finished_at, status, layout_name, settings, summary, error FROM loadtest_runs ORDER BY started_at DESC, id DESC LIMIT ?",
      ),
      one: db.prepare(
        "SELECT id, started_at, finished_at, status, layout_name, settings, summary, error, result FROM loadtest_runs WHERE id = ?",
      ),
      delete: db.prepare("DELETE FROM loadtest_runs WHERE id = ? AND status != 'running'"),
      stale: db.prepare(
        "SELECT id, started_at, finished_at, status, layout_name, settings, summary, error FROM loadtest_runs WHERE status = 'running'",
      ),
    };
  }

  /** Runs still marked running belong to a host that stopped mid-run: they failed. */
  failStale(now: string): void {
    for (const r of this.q.stale.all() as Row[]) {
      const error = "the studio stopped during this run";
      const summary = summaryOf(
        {
          id: r.id,
          startedAt: r.started_at,
          layoutName: r.layout_name,
          projectId: projectOf(r.summary),
          settings: JSON.parse(r.settings) as RunSettings,
        },
        null,
        "failed",
        now,
        error,
      );
      this.q.finish.run("failed", now, JSON.stringify(summary), null, error, r.id);
    }
  }

  insertRunning(
    id: string,
    startedAt: string,
    layoutName: string,
    settings: RunSettings,
    projectId: string | null = null,
  ): LoadTestSummary {
    const summary = summaryOf({ id, startedAt, layoutName, projectId, settings }, null, "running", null, null);
    this.q.insert.run(id, startedAt, layoutName, JSON.stringify(settings), JSON.stringify(summary));
    return summary;
  }

  finish(
    id: string,
    status: Exclude<LoadTestSummary["status"], "running">,
    finishedAt: string,
    result: LoadTestResult | null,
    error: string | null,
  ): LoadTestSummary {
    const row = this.q.one.get(id) as Row | undefined;
    if (!row) throw new HostError("not_found", `no load test ${id}`);
    const summary = summaryOf(
      {
        id,
        startedAt: row.started_at,
        layoutName: row.layout_name,
        projectId: projectOf(row.summary),
        settings: JSON.parse(row.settings) as RunSettings,
      },
      result,
      status,
      finishedAt,
      error,
    );
    this.q.finish.run(status, finishedAt, JSON.stringify(summary), result ? JSON.stringify(result) : null, error, id);
    return summary;
  }

  list(limit: number): LoadTestSummary[] {
    return (this.q.list.all(limit) as Row[]).map((r) => parseSummary(r.summary!));
  }

  get(id: string): LoadTestRun {
    const row = this.q.one.get(id) as (Row & { result: string | null }) | undefined;
    if (!row) throw new HostError("not_found", `no load test ${id}`);
    return { ...parseSummary(row.summary!), result: row.result ? (JSON.parse(row.result) as LoadTestResult) : null };
  }

  delete(id: string): boolean {
    return this.q.delete.run(id).changes > 0;
  }
}
