// The module's queue (MST_RR) beside what we enqueued, and the recent transmissions with their ack times.
import { RESET_REASONS } from "#contracts/devkit/counters.ts";
import type { Transmission } from "#host/api/devkit.ts";
import { ActionButton, Card, clock, duration, Empty, ErrorLine } from "./benchParts.tsx";
import { refreshQueue, useBench } from "./benchStore.ts";

function Row({ t }: { t: Transmission }) {
  return (
    <tr data-testid={`tx-${t.queueId}`} data-status={t.status}>
      <td className="mono num">{t.queueId}</td>
      <td className="num">{t.bytes} B</td>
      <td>{t.format ?? "hex"}</td>
      <td>
        <span className={`bench-badge ${t.status}`}>{t.status}</span>
      </td>
      <td className="mono faint">{clock(t.enqueuedAt)}</td>
      <td className="mono">{t.ackedAt ? clock(t.ackedAt) : "–"}</td>
    </tr>
  );
}

function Table({ rows, testId }: { rows: Transmission[]; testId: string }) {
  return (
    <table className="bench-table" data-testid={testId}>
      <thead>
        <tr>
          <th>id</th>
          <th>size</th>
          <th>format</th>
          <th>status</th>
          <th>queued</th>
          <th>acked</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((t) => (
          <Row key={t.id} t={t} />
        ))}
      </tbody>
    </table>
  );
}

export function QueueCard() {
  const queue = useBench((s) => s.queue);
  const ready = useBench((s) => s.status?.state === "ready");
  const history = useBench((s) => s.transmissions);
  const m = queue?.module as
    { queued?: number; ackedInQueue?: number; lastResetReason?: number; uptime?: number } | undefined;
  return (
    <Card
      title="Queue"
      testId="queue-card"
      actions={
        <ActionButton action="queue" disabled={!ready} onClick={() => void refreshQueue()}>
          Refresh
        </ActionButton>
      }
    >
      {!queue ? (
        <Empty>Connect to see the module's queue.</Empty>
      ) : (
        <>
          <div
            className="bench-slots"
            data-testid="queue-slots"
            data-queued={m?.queued ?? 0}
            aria-label={`${m?.queued ?? 0} of 8 slots used`}
          >
            {Array.from({ length: 8 }, (_, i) => (
              <span
                key={i}
                className={`slot${i < (m?.queued ?? 0) ? (i < (m?.ackedInQueue ?? 0) ? " acked" : " used") : ""}`}
              />
            ))}
            <span className="faint">
              {m?.queued ?? 0}/8 queued · {m?.ackedInQueue ?? 0} acked in queue · up {duration(m?.uptime ?? 0)} · last
              reset: {RESET_REASONS[m?.lastResetReason ?? 0] ?? m?.lastResetReason}
            </span>
          </div>
          {queue.ours.length ? (
            <Table rows={queue.ours} testId="queue-ours" />
          ) : (
            <Empty testId="queue-empty">Nothing we enqueued is waiting.</Empty>
          )}
        </>
      )}
      <ErrorLine action="queue" />
      <p className="bench-sub">Recent transmissions (all ports)</p>
      {history.length ? (
        <Table rows={history.slice(0, 8)} testId="tx-history" />
      ) : (
        <Empty>No payload sent from the bench yet.</Empty>
      )}
    </Card>
  );
}
