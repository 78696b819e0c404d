// Runs side by side: one column per run, one row per figure, the best value of each row marked.
import { formatLabel } from "#codecs";
import { describeWait } from "#contracts/loadtest/spec.ts";
import type { LoadTestRun } from "#host/api/loadtest.ts";
import { Card, fmt } from "./loadTestParts.tsx";
import { closeCompare, useLoadTest } from "./loadTestStore.ts";
import { bestWithinNoise, estimate, type Estimate } from "./noise.ts";

type Row = {
  label: string;
  value: (r: LoadTestRun) => number | string | null;
  show: (v: number) => string;
  better?: "high" | "low";
  /** the run's per-second samples of this figure, for its noise */
  noise?: (r: LoadTestRun) => Estimate | null;
};

const bytes = (v: number) => `${v.toFixed(1)} B`;

const ROWS: Row[] = [
  { label: "format", value: (r) => formatLabel(r.format), show: String },
  { label: "devices", value: (r) => r.devices, show: (v) => String(v) },
  { label: "wait", value: (r) => (r.result ? describeWait(r.result.settings.wait) : "–"), show: String },
  { label: "target", value: (r) => r.target, show: String },
  { label: "payload, mean", value: (r) => r.result?.payloadBytes.mean ?? null, show: bytes, better: "low" },
  {
    label: "payload, min–max",
    value: (r) => (r.result ? `${r.result.payloadBytes.min}–${r.result.payloadBytes.max} B` : null),
    show: String,
  },
  {
    label: "requests / s",
    value: (r) => r.result?.rps ?? null,
    show: (v) => fmt.rps(v),
    better: "high",
    noise: (r) => (r.result ? estimate(r.result.timeline, "rps") : null),
  },
  {
    label: "of offered",
    value: (r) => ((r.result?.offeredShare ?? null) === null ? null : r.result!.offeredShare! * 100),
    show: (v) => fmt.pct(v, 1),
    better: "high",
  },
  { label: "p50", value: (r) => r.result?.latency.p50 ?? null, show: fmt.ms, better: "low" },
  {
    label: "p95",
    value: (r) => r.result?.latency.p95 ?? null,
    show: fmt.ms,
    better: "low",
    noise: (r) => (r.result ? estimate(r.result.timeline, "p95") : null),
  },
  { label: "p99", value: (r) => r.result?.latency.p99 ?? null, show: fmt.ms, better: "low" },
  { label: "max", value: (r) => r.result?.latency.max ?? null, show: fmt.ms, better: "low" },
  { label: "failures", value: (r) => r.failurePercent, show: (v) => fmt.pct(v), better: "low" },
  { label: "ingest → cin p95", value: (r) => r.result?.endToEnd?.p95 ?? null, show: fmt.ms, better: "low" },
  // a client-limited run's FoM describes the generator: no value to compare
  { label: "FoM", value: (r) => (r.valid === false ? "not valid" : r.fom), show: fmt.int, better: "high" },
];

/** rows whose best run cannot be told from the next one, in words for the warning */
function noiseWarnings(runs: LoadTestRun[]): { label: string; text: string }[] {
  const out: { label: string; text: string }[] = [];
  for (const row of ROWS) {
    if (!row.noise || !row.better) continue;
    const tie = bestWithinNoise(runs.map(row.noise), row.better);
    if (tie)
      out.push({
        label: row.label,
        text: `${row.label}: runs ${tie.best + 1} and ${tie.next + 1} differ by ${row.show(tie.delta)}, within their run-to-run noise (±${row.show(tie.noise)})`,
      });
  }
  return out;
}

export function CompareCard() {
  const runs = useLoadTest((s) => s.compared);
  if (runs.length === 0) {
    return (
      <Card title="Compare" testId="lt-compare-card" className="wide">
        <div className="empty" data-testid="lt-compare-empty">
          <strong>Nothing to compare</strong>
          Tick two or more runs in the history and press <em>Compare</em> to see them side by side.
        </div>
      </Card>
    );
  }
  return (
    <Card
      title="Compare"
      testId="lt-compare-card"
      className="wide"
      actions={
        <button type="button" className="btn small ghost" onClick={closeCompare} data-testid="lt-compare-close">
          Close
        </button>
      }
    >
      {(() => {
        const warnings = noiseWarnings(runs);
        return warnings.length ? (
          <div className="note attention" data-testid="lt-compare-noise" role="note">
            <strong>Within noise:</strong>
            <ul>
              {warnings.map((w) => (
                <li key={w.label}>{w.text}</li>
              ))}
            </ul>
            Repeat the runs or measure longer before calling one better.
          </div>
        ) : null;
      })()}
      <div className="lt-scroll">
        <table className="lt-table compact" data-testid="lt-compare-table">
          <thead>
            <tr>
              <th />
              {runs.map((r, i) => (
                <th key={r.id} className="num">
                  {i + 1}. {fmt.when(r.startedAt)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => {
              const values = runs.map(row.value);
              const nums = values.filter((v): v is number => typeof v === "number");
              // a tie is no winner, and neither is a lead smaller than the noise
              const noisy = row.noise && row.better ? bestWithinNoise(runs.map(row.noise), row.better) !== null : false;
              const best =
                row.better && !noisy && nums.length > 1 && new Set(nums).size > 1
                  ? row.better === "high"
                    ? Math.max(...nums)
                    : Math.min(...nums)
                  : undefined;
              return (
                <tr
                  key={row.label}
                  data-testid={`lt-compare-row-${row.label.replace(/[^a-z0-9]+/gi, "-")}`}
                  data-noisy={noisy ? "true" : undefined}
                >
                  <th>{row.label}</th>
                  {values.map((v, i) => (
                    <td key={runs[i]!.id} className={`num${typeof v === "number" && v === best ? " lt-best" : ""}`}>
                      {v === null ? "–" : typeof v === "number" ? row.show(v) : v}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
