// One finished run in detail: throughput against the offered load, latency percentiles, failures by
// kind, end-to-end delay, the generator's own health and the paper's cell for the same configuration.
import { FORMAT_LABELS } from "#codecs";
import { describeWait } from "#contracts/loadtest/spec.ts";
import { INGEST_TRANSPORT_LABELS } from "#planning/ingest";
import { RunCharts } from "./Charts.tsx";
import { Card, fmt, FomValue } from "./loadTestParts.tsx";
import { useLoadTest } from "./loadTestStore.ts";

export function ResultCard() {
  const run = useLoadTest((s) => s.detail);
  if (!run) {
    return (
      <Card title="Result" testId="lt-result">
        <div className="empty" data-testid="lt-result-empty">
          <strong>No result shown</strong>
          Finished runs appear here; pick one in the history to see it again.
        </div>
      </Card>
    );
  }
  const r = run.result;
  if (!r) {
    return (
      <Card title="Result" testId="lt-result">
        <p className={run.status === "failed" ? "lt-error" : "muted"} data-testid="lt-result-status">
          {run.status === "failed"
            ? `The run failed: ${run.error ?? "no reason given"}`
            : "This run has not finished yet."}
        </p>
      </Card>
    );
  }
  const l = r.latency;
  const http = Object.entries(r.failures.http);
  const failed = r.requests.measuredFailed;
  return (
    <Card title="Result" testId="lt-result">
      <p className="lt-result-title" data-testid="lt-result-status" data-status={r.status}>
        <strong>{FORMAT_LABELS[r.settings.format]}</strong> · {r.settings.devices}{" "}
        {r.settings.mode === "open" ? "in flight max" : "devices"} · {describeWait(r.settings.wait)} · {run.target} ·{" "}
        <span data-testid="lt-result-transport">{INGEST_TRANSPORT_LABELS[run.transport]}</span> ·{" "}
        <span className="muted">{r.status === "cancelled" ? "cancelled" : `${r.measuredSeconds} s measured`}</span>
      </p>
      {!r.client.valid ? (
        <p className="note attention" data-testid="lt-client-limited">
          The generator limited this run: {r.client.reasons.join("; ")}. Its numbers describe this machine's client, not
          the server.
        </p>
      ) : null}
      <div className="lt-stats">
        <div>
          <span className="lt-stat-label">requests / s</span>
          <span className="lt-stat num" data-testid="lt-result-rps">
            {fmt.rps(r.rps)}
          </span>
          <span className="lt-stat-sub muted">
            {r.offeredShare !== null
              ? `${(r.offeredShare * 100).toFixed(1)} % of ${r.offeredRps?.toFixed(0)} offered`
              : ""}
          </span>
        </div>
        <div>
          <span className="lt-stat-label">p95</span>
          <span className="lt-stat num" data-testid="lt-result-p95">
            {fmt.ms(l.p95)}
          </span>
        </div>
        <div>
          <span className="lt-stat-label">failures</span>
          <span className={`lt-stat num${failed ? " over-text" : ""}`} data-testid="lt-result-failures">
            {fmt.int(failed)}
          </span>
          <span className="lt-stat-sub muted">{fmt.pct((1 - r.successRate) * 100)}</span>
        </div>
        <div>
          <span className="lt-stat-label">FoM</span>
          <span className="lt-stat num">
            <FomValue fom={r.fom} valid={r.client.valid} testId="lt-result-fom" />
          </span>
          {!r.client.valid ? <span className="lt-stat-sub muted">client-limited run</span> : null}
        </div>
      </div>
      <div className="lt-scroll">
        <table className="lt-table compact" data-testid="lt-latency">
          <thead>
            <tr>
              <th>latency</th>
              <th>min</th>
              <th>p50</th>
              <th>avg</th>
              <th>p95</th>
              <th>p99</th>
              <th>max</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th>answer</th>
              {[l.min, l.p50, l.avg, l.p95, l.p99, l.max].map((v, i) => (
                <td key={i} className="num">
                  {fmt.ms(v)}
                </td>
              ))}
            </tr>
            {r.endToEnd ? (
              <tr data-testid="lt-e2e">
                <th title="ingest → contentInstance created in the CSE (subscription notification)">ingest → cin</th>
                {[r.endToEnd.min, r.endToEnd.p50, r.endToEnd.avg, r.endToEnd.p95, r.endToEnd.p99, r.endToEnd.max].map(
                  (v, i) => (
                    <td key={i} className="num">
                      {fmt.ms(v)}
                    </td>
                  ),
                )}
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <dl className="lt-kv">
        <div>
          <dt>requests</dt>
          <dd className="num">
            {fmt.int(r.requests.measured)} measured of {fmt.int(r.requests.sent)} sent
          </dd>
        </div>
        <div>
          <dt>failures by kind</dt>
          <dd data-testid="lt-failure-kinds">
            {failed === 0
              ? "none"
              : [
                  ...http.map(([k, v]) => `HTTP ${k} × ${v}`),
                  r.failures.timeout ? `timeout × ${r.failures.timeout}` : "",
                  r.failures.connection ? `connection × ${r.failures.connection}` : "",
                ]
                  .filter(Boolean)
                  .join(", ")}
          </dd>
        </div>
        {r.server ? (
          <div>
            <dt>decoder</dt>
            <dd className="num" data-testid="lt-result-server">
              acknowledged <span data-testid="lt-result-acked">{fmt.int(r.requests.succeeded)}</span>, stored{" "}
              <span data-testid="lt-result-stored">{fmt.int(r.server.records)}</span>, forwarded{" "}
              {fmt.int(r.server.forwarded)}, rejected {fmt.int(r.server.rejected)}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>payload</dt>
          <dd className="num">
            {r.payloadBytes.min}–{r.payloadBytes.max} B (mean {r.payloadBytes.mean})
          </dd>
        </div>
        <div>
          <dt>generator</dt>
          <dd className="num">
            {r.client.workers} thread(s), loop lag p99 {fmt.ms(r.client.eventLoopLagP99Ms)}, send lag p95{" "}
            {fmt.ms(r.client.sendLagP95Ms)}
          </dd>
        </div>
        {r.paper ? (
          <div data-testid="lt-paper-cell">
            <dt>paper ({r.paper.source})</dt>
            <dd className="num">
              {r.paper.rps} RPS, avg {r.paper.avgMs} ms, p95 {fmt.ms(r.paper.p95Ms)}, {r.paper.failuresPercent} %
              failed, FoM {fmt.int(r.paper.fom)}
            </dd>
          </div>
        ) : null}
      </dl>
      {r.notes.map((n) => (
        <p key={n} className="note">
          {n}
        </p>
      ))}
      {r.timeline.length ? <RunCharts points={r.timeline} /> : null}
    </Card>
  );
}
