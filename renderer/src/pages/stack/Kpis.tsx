// The dashboard's headline numbers: what arrived, how fast, from how many devices, how small, and
// whether everything reached the CSE.
import type { StackStats } from "#host/api/stack.ts";
import { fmt } from "./format.ts";

function Kpi({
  label,
  value,
  sub,
  tone,
  testId,
  raw,
}: {
  label: string;
  value: string;
  sub?: string;
  tone?: "good" | "attention" | "over";
  testId: string;
  raw: number | null;
}) {
  return (
    <div className={`stack-kpi${tone ? ` ${tone}` : ""}`} data-testid={testId} data-value={raw ?? ""}>
      <span className="stack-kpi-label">{label}</span>
      <span className="stack-kpi-value num">{value}</span>
      {sub ? <span className="stack-kpi-sub">{sub}</span> : null}
    </div>
  );
}

export function Kpis({ stats }: { stats: StackStats | null }) {
  const s = stats;
  const forwarders = s?.buffers.map((b) => b.forwarder) ?? [];
  // the CSE cannot be reached (or every container with records is backing off)
  const retrying = forwarders.some((f) => f?.state === "retrying");
  const failing = forwarders.reduce((n, f) => n + (f?.failingContainers ?? 0), 0);
  const deliveredShare = s && s.records ? s.delivered / s.records : null;
  return (
    <section className="stack-kpis" aria-label="Live numbers" data-testid="stack-kpis">
      <Kpi
        label="Records"
        testId="kpi-records"
        raw={s?.records ?? null}
        value={fmt.int(s?.records)}
        sub={s?.duplicates ? `${fmt.int(s.duplicates)} resends recognised` : "stored durably"}
      />
      <Kpi
        label="Records / s"
        testId="kpi-rate"
        raw={s?.recordsPerSecond ?? null}
        value={fmt.rate(s?.recordsPerSecond)}
        sub="last second"
      />
      <Kpi
        label="Unique devices"
        testId="kpi-devices"
        raw={s?.uniqueDevices ?? null}
        value={fmt.int(s?.uniqueDevices)}
        sub="by device key"
      />
      <Kpi
        label="vs JSON size"
        testId="kpi-ratio"
        raw={s?.meanCompressionRatio ?? null}
        value={fmt.ratio(s?.meanCompressionRatio)}
        sub="mean compression ratio"
        tone={s?.meanCompressionRatio && s.meanCompressionRatio > 1 ? "good" : undefined}
      />
      <Kpi
        label="Delivered"
        testId="kpi-forwarded"
        raw={s?.delivered ?? null}
        value={deliveredShare === null ? "–" : fmt.pct(deliveredShare)}
        sub={
          s
            ? `${fmt.int(s.delivered)} in the CSE${s.forwardFailures ? `, ${fmt.int(s.forwardFailures)} failed attempts` : ""}`
            : undefined
        }
        tone={retrying ? "over" : deliveredShare === 1 ? "good" : undefined}
      />
      <Kpi
        label="Pending"
        testId="kpi-backlog"
        raw={s?.pending ?? null}
        value={fmt.int(s?.pending)}
        sub={
          retrying
            ? "CSE not taking records: retrying"
            : failing
              ? `${fmt.int(failing)} container${failing === 1 ? "" : "s"} backing off`
              : "to be forwarded"
        }
        tone={retrying || failing ? "attention" : undefined}
      />
      <Kpi
        label="Refused"
        testId="kpi-refused"
        raw={s?.refused ?? null}
        value={fmt.int(s?.refused)}
        sub={s?.refused ? "fix, then retry" : "by the CSE"}
        tone={s?.refused ? "over" : undefined}
      />
      <Kpi
        label="Dead letters"
        testId="kpi-dead"
        raw={s?.deadLetters ?? null}
        value={fmt.int(s?.deadLetters)}
        sub="undecodable, kept"
        tone={s?.deadLetters ? "attention" : undefined}
      />
      <Kpi
        label="Success rate"
        testId="kpi-success"
        raw={s?.successRate ?? null}
        value={fmt.pct(s?.successRate)}
        sub={s ? `${fmt.int(s.rejected)} rejected (4xx)` : undefined}
      />
    </section>
  );
}
