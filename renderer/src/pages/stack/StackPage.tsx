// The Stack page: start and stop the local decoder + CSE, and watch it live — the paper's Figure 5
// dashboard: records per second, unique devices, compression, delivered / pending / refused, dead
// letters, latest records — and retry what the CSE refused once its cause is fixed.
import { useEffect } from "react";
import { Endpoints } from "./Endpoints.tsx";
import { FlaggedCard } from "./FlaggedCard.tsx";
import { KeysCard } from "./KeysCard.tsx";
import { Kpis } from "./Kpis.tsx";
import { RateChart } from "./RateChart.tsx";
import { RecordsTable } from "./RecordsTable.tsx";
import { RefusedCard } from "./RefusedCard.tsx";
import { LogsCard, ServicesCard } from "./ServicesCard.tsx";
import { isLive, refresh, stackDown, startStack, useStack } from "./stackStore.ts";
import { StartCard } from "./StartCard.tsx";
import { BackLink } from "../../nav/BackLink.tsx";
import { ThemeToggle } from "../../ui/ThemeToggle.tsx";
import "./stack.css";

const STATE_TEXT = {
  stopped: "Stopped",
  starting: "Starting…",
  running: "Running",
  degraded: "Degraded",
  stopping: "Stopping…",
} as const;

function StateChip() {
  const status = useStack((s) => s.status);
  const busy = useStack((s) => s.busy);
  const state = busy === "up" ? "starting" : busy === "down" ? "stopping" : (status?.state ?? "stopped");
  return (
    <span className={`stack-chip ${state}`} data-testid="stack-state" data-state={state}>
      <span className="dot" aria-hidden="true" />
      {STATE_TEXT[state]}
    </span>
  );
}

export function StackPage() {
  const status = useStack((s) => s.status);
  const stats = useStack((s) => s.stats);
  const series = useStack((s) => s.series);
  const records = useStack((s) => s.records);
  const arrived = useStack((s) => s.arrived);
  const logs = useStack((s) => s.logs);
  const busy = useStack((s) => s.busy);
  const error = useStack((s) => s.error);
  useEffect(() => {
    // the first start already reads the status; a later visit reads the records and numbers it missed
    if (!startStack()) void refresh();
  }, []);
  const live = isLive(status);
  return (
    <>
      <header className="topbar">
        <BackLink testId="stack-back" />
        <span className="divider-v" aria-hidden="true" />
        <h1 className="stack-title">Stack</h1>
        <span className="muted stack-small">decoder → SQLite buffer → oneM2M CSE</span>
        <StateChip />
        <div className="spacer" />
        {live ? (
          <button
            type="button"
            className="btn"
            data-testid="stack-stop"
            disabled={busy !== null || status?.owner === null}
            onClick={() => void stackDown()}
          >
            {busy === "down" ? "Stopping…" : "Stop the stack"}
          </button>
        ) : null}
        <ThemeToggle />
      </header>
      <main
        className={`stack-page${live ? "" : " idle"}`}
        data-testid="stack-page"
        data-state={status?.state ?? "unknown"}
      >
        {error ? (
          <div className="error-box stack-wide" role="alert" data-testid="stack-error">
            <div>
              <div className="title">{busy === null && !live ? "The stack did not start" : "Stack problem"}</div>
              <div>{error}</div>
            </div>
            <div className="spacer" />
            <button type="button" className="btn small" onClick={() => useStack.setState({ error: null })}>
              Dismiss
            </button>
          </div>
        ) : null}
        {status === null ? (
          <div className="loading">Asking the host…</div>
        ) : live ? (
          <>
            <Kpis stats={stats} />
            <RateChart points={series} />
            {status.endpoints ? <Endpoints e={status.endpoints} /> : null}
            <RecordsTable records={records} arrived={arrived} />
            <RefusedCard stats={stats} />
            <FlaggedCard stats={stats} />
            <ServicesCard status={status} />
            <LogsCard lines={logs} />
            <KeysCard />
          </>
        ) : status.state === "starting" || busy === "up" ? (
          <section className="card stack-progress" data-testid="stack-starting" aria-live="polite">
            <div className="stack-spinner" aria-hidden="true" />
            <div>
              <strong>Starting the stack</strong>
              <ul>
                {(status.services.length
                  ? status.services
                  : [{ name: "cse" as const, state: "starting" as const }]
                ).map((s) => (
                  <li key={s.name}>
                    {s.name === "cse" ? "Embedded CSE" : "Decoder"}: {s.state}
                  </li>
                ))}
              </ul>
            </div>
          </section>
        ) : (
          <>
            <StartCard />
            {records.length ? <RecordsTable records={records} arrived={arrived} stopped /> : null}
            <KeysCard />
          </>
        )}
      </main>
    </>
  );
}
