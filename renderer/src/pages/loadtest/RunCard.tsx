// The run in progress: phase, a progress bar, live counters and charts, and cancel.
import { RunCharts } from "./Charts.tsx";
import { ActionButton, Card, ErrorLine, fmt } from "./loadTestParts.tsx";
import { cancelRun, useLoadTest } from "./loadTestStore.ts";

const PHASES: Record<string, string> = {
  starting: "Starting",
  ramp: "Ramping up devices",
  warmup: "Warming up (not measured)",
  measure: "Measuring",
  drain: "Letting the last requests finish",
  e2e: "Waiting for the stack to forward",
};

export function RunCard() {
  const active = useLoadTest((s) => s.active);
  if (!active) {
    return (
      <Card title="Run" testId="lt-run">
        <div className="empty" data-testid="lt-run-empty">
          <strong>No run in progress</strong>
          Configure a fleet and press <em>Start load test</em>: its progress, requests per second, p95 latency and
          failures are drawn here as it runs.
        </div>
      </Card>
    );
  }
  const p = active.progress;
  const pct = Math.round((p?.fraction ?? 0) * 100);
  const last = active.timeline.at(-1);
  return (
    <Card
      title="Run"
      testId="lt-run"
      actions={
        <ActionButton action="cancel" testId="lt-cancel" onClick={() => void cancelRun()}>
          Cancel
        </ActionButton>
      }
    >
      <div className="lt-run-head">
        <span className="lt-phase" data-testid="lt-phase" data-phase={p?.phase ?? "starting"}>
          {PHASES[p?.phase ?? "starting"]}
          {p?.message ? ` — ${p.message}` : ""}
        </span>
        <span className="spacer" />
        <span className="muted num">
          {p ? `${Math.round(p.elapsedSeconds)} / ${Math.round(p.plannedSeconds)} s` : ""}
        </span>
      </div>
      <div
        className="lt-progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        data-testid="lt-progress"
      >
        <div className="lt-progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <div className="lt-stats">
        <div>
          <span className="lt-stat-label">requests / s</span>
          <span className="lt-stat num" data-testid="lt-live-rps">
            {fmt.rps(last?.rps)}
          </span>
        </div>
        <div>
          <span className="lt-stat-label">p95</span>
          <span className="lt-stat num">{fmt.ms(last?.p95)}</span>
        </div>
        <div>
          <span className="lt-stat-label">sent</span>
          <span className="lt-stat num" data-testid="lt-live-sent">
            {fmt.int(p?.sent)}
          </span>
        </div>
        <div>
          <span className="lt-stat-label">failed</span>
          <span className={`lt-stat num${p?.failures ? " over-text" : ""}`}>{fmt.int(p?.failures)}</span>
        </div>
        <div>
          <span className="lt-stat-label">devices</span>
          <span className="lt-stat num">{fmt.int(last?.activeDevices)}</span>
        </div>
      </div>
      {active.timeline.length ? (
        <RunCharts points={active.timeline} />
      ) : (
        <p className="muted">The charts start with the first second of traffic.</p>
      )}
      <ErrorLine action="cancel" />
    </Card>
  );
}
