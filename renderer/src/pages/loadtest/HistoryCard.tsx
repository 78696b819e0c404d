// Every run kept in the projects database: pick runs to compare or export, open one, delete one.
import { formatLabel } from "#codecs";
import { INGEST_TRANSPORT_LABELS } from "#planning/ingest";
import { ActionButton, Card, ErrorLine, FailureCell, fmt, FomValue } from "./loadTestParts.tsx";
import { compareRuns, deleteRun, exportRuns, showRun, togglePick, useLoadTest } from "./loadTestStore.ts";

export function HistoryCard() {
  const history = useLoadTest((s) => s.history);
  const loaded = useLoadTest((s) => s.historyLoaded);
  const picked = useLoadTest((s) => s.picked);
  const detail = useLoadTest((s) => s.detail?.id);
  const exportable = history.some((h) => h.status === "completed" || h.status === "cancelled");
  return (
    <Card
      title="History"
      testId="lt-history"
      className="wide"
      actions={
        <>
          <ActionButton
            action="compare"
            testId="lt-compare"
            disabled={picked.length < 2}
            title={picked.length < 2 ? "Tick two or more runs" : undefined}
            onClick={() => void compareRuns()}
          >
            Compare {picked.length >= 2 ? picked.length : ""}
          </ActionButton>
          <ActionButton
            action="export"
            testId="lt-export-csv"
            disabled={!exportable}
            title={picked.length ? "Export the ticked runs" : "Export every finished run"}
            onClick={() => void exportRuns("csv")}
          >
            CSV
          </ActionButton>
          <ActionButton
            action="export"
            testId="lt-export-json"
            disabled={!exportable}
            onClick={() => void exportRuns("json")}
          >
            JSON
          </ActionButton>
        </>
      }
    >
      {history.length === 0 ? (
        <div className="empty" data-testid="lt-history-empty">
          <strong>{loaded ? "No load tests yet" : "Loading…"}</strong>
          {loaded
            ? "Runs are kept here with their settings and results, to compare side by side and export as CSV or JSON."
            : ""}
        </div>
      ) : (
        <div className="lt-scroll">
          <table className="lt-table" data-testid="lt-history-table">
            <thead>
              <tr>
                <th aria-label="pick" />
                <th>started</th>
                <th>layout</th>
                <th>format</th>
                <th className="num">devices</th>
                <th>target</th>
                <th>transport</th>
                <th className="num">RPS</th>
                <th className="num">p95</th>
                <th className="num">failures</th>
                <th className="num">FoM</th>
                <th>status</th>
                <th aria-label="actions" />
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr
                  key={h.id}
                  className={h.id === detail ? "selected" : undefined}
                  data-testid={`lt-history-row`}
                  data-id={h.id}
                  data-status={h.status}
                >
                  <td>
                    <input
                      type="checkbox"
                      aria-label="pick for compare and export"
                      checked={picked.includes(h.id)}
                      disabled={h.status === "running"}
                      onChange={() => togglePick(h.id)}
                      data-testid="lt-pick"
                    />
                  </td>
                  <td className="num">
                    <button type="button" className="lt-link" onClick={() => void showRun(h.id)} data-testid="lt-open">
                      {fmt.when(h.startedAt)}
                    </button>
                  </td>
                  <td className="lt-ellipsis" title={h.layoutName}>
                    {h.layoutName}
                  </td>
                  <td>{formatLabel(h.format)}</td>
                  <td className="num">{h.devices}</td>
                  <td className="lt-ellipsis" title={h.target}>
                    {h.target}
                  </td>
                  <td data-testid="lt-history-transport">{INGEST_TRANSPORT_LABELS[h.transport]}</td>
                  <td className="num">{fmt.rps(h.rps)}</td>
                  <td className="num">{fmt.ms(h.p95Ms)}</td>
                  <td className="num">
                    <FailureCell percent={h.failurePercent} />
                  </td>
                  <td className="num">
                    <FomValue fom={h.fom} valid={h.valid} />
                  </td>
                  <td>
                    <span
                      className={`lt-status ${h.status}${h.valid === false ? " limited" : ""}`}
                      title={h.error ?? (h.valid === false ? "the client limited this run" : undefined)}
                    >
                      {h.status === "running"
                        ? "running…"
                        : h.valid === false
                          ? `${h.status}, client-limited`
                          : h.status}
                    </span>
                  </td>
                  <td>
                    {h.status !== "running" ? (
                      <button
                        type="button"
                        className="icon-btn"
                        title="Delete this run"
                        aria-label="Delete this run"
                        data-testid="lt-delete"
                        onClick={() => void deleteRun(h.id)}
                      >
                        ×
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ErrorLine action="export" />
      <ErrorLine action="compare" />
      <ErrorLine action="delete" />
      <ErrorLine action="history" />
    </Card>
  );
}
