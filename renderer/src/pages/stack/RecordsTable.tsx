// The latest decoded records as they arrive (newest on top); a row opens the whole record. After Stop the
// last run's records stay here until the next Start or Clear: stopping is not a reason to lose them.
import { Fragment, useState } from "react";
import type { StackRecord } from "#host/api/stack.ts";
import { fmt, layoutLabel, preview } from "./format.ts";
import { clearRecords, useStack } from "./stackStore.ts";

export function RecordsTable({
  records,
  arrived,
  stopped = false,
}: {
  records: StackRecord[];
  arrived: number;
  /** the stack is stopped: these are the last run's records */
  stopped?: boolean;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const names = useStack((s) => s.layoutNames);
  return (
    <section
      className="card stack-card stack-wide"
      data-testid="stack-records"
      aria-label="Latest decoded records"
      data-count={records.length}
    >
      <header className="stack-card-head">
        <h2 className="section-title">{stopped ? "Records of the last run" : "Latest decoded records"}</h2>
        <span className="spacer" />
        <span className="faint stack-small">
          {stopped
            ? "the stack is stopped: kept until the next start"
            : arrived
              ? `${fmt.int(arrived)} arrived while this page was open`
              : "newest first"}
        </span>
        {records.length ? (
          <button type="button" className="btn small" data-testid="stack-records-clear" onClick={clearRecords}>
            Clear
          </button>
        ) : null}
      </header>
      {records.length === 0 ? (
        <p className="empty" data-testid="stack-records-empty">
          <strong>No records yet</strong>
          Send a message to the ingest endpoint; it appears here as soon as it is stored.
        </p>
      ) : (
        <div className="stack-table-wrap">
          <table className="stack-table">
            <thead>
              <tr>
                <th>Received</th>
                <th>Device</th>
                <th>Layout</th>
                <th>Format</th>
                <th className="num">Bytes</th>
                <th className="num">vs JSON</th>
                <th>CSE</th>
                <th>Values</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => {
                const key = `${r.buffer}:${r.seq}`;
                const expanded = open === key;
                return (
                  <Fragment key={key}>
                    <tr
                      className={expanded ? "open" : undefined}
                      data-testid={`record-${r.messageId}`}
                      tabIndex={0}
                      aria-expanded={expanded}
                      onClick={() => setOpen(expanded ? null : key)}
                      onKeyDown={(e) => {
                        if (e.key === "Enter" || e.key === " ") {
                          e.preventDefault();
                          setOpen(expanded ? null : key);
                        }
                      }}
                    >
                      <td className="num">{fmt.time(r.receivedAt)}</td>
                      <td className="mono">{r.device}</td>
                      <td className="stack-ellipsis" title={r.layout} data-testid="record-layout">
                        {layoutLabel(r.layout, names)}
                      </td>
                      <td>{r.format}</td>
                      <td className="num">{r.size}</td>
                      <td className="num">{fmt.ratio(r.size ? r.jsonSize / r.size : null)}</td>
                      <td>
                        {r.forwardedAt ? (
                          <span className="stack-ok">delivered</span>
                        ) : r.refusedAt ? (
                          <span className="stack-refused-problem">refused</span>
                        ) : (
                          <span className="faint">pending</span>
                        )}
                      </td>
                      <td className="mono stack-ellipsis stack-values">{preview(r.record)}</td>
                    </tr>
                    {expanded ? (
                      <tr className="stack-detail">
                        <td colSpan={8}>
                          <div className="stack-detail-meta faint">
                            message id <code>{r.messageId}</code>
                            {r.rn ? (
                              <>
                                {" "}
                                · instance <code>{r.rn}</code>
                              </>
                            ) : null}{" "}
                            · buffer {r.buffer} · seq {r.seq}
                          </div>
                          <pre className="mono">{JSON.stringify(r.record, null, 2)}</pre>
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
