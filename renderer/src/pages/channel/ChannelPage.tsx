// The Channel page: seed 003's random-access scenario as a preset, or the open layout's fleet on a
// chosen DVB-RCS2-like channel; the simulator runs in a worker with progress.
import { useEffect } from "react";
import { FORMAT_IDS } from "#codecs";
import {
  cancelSimulation,
  enterChannelProject,
  runSimulation,
  setChannelWorker,
  setField,
  useChannel,
  type ChannelForm,
} from "./channelStore.ts";
import { FleetResults, Seed003Results } from "./Results.tsx";
import { BackLink } from "../../nav/BackLink.tsx";
import { useDesigner } from "../../state/layoutStore.ts";
import { ThemeToggle } from "../../ui/ThemeToggle.tsx";
import "./channel.css";

setChannelWorker(
  () => new Worker(new URL("./channel.worker.ts", import.meta.url), { type: "module", name: "channel" }),
);

function Field({ name, label, hint, wide }: { name: keyof ChannelForm; label: string; hint?: string; wide?: boolean }) {
  const value = useChannel((s) => s.form[name]);
  const error = useChannel((s) => s.errors[name]);
  return (
    <label className={`ch-field${wide ? " wide" : ""}`}>
      <span className="ch-label">{label}</span>
      <input
        className={`input${error ? " invalid" : ""}`}
        value={value}
        aria-invalid={!!error}
        data-testid={`ch-${name}`}
        onChange={(e) => setField(name, e.target.value as never)}
      />
      {error ? (
        <span className="ch-field-error" role="alert" data-testid={`ch-error-${name}`}>
          {error}
        </span>
      ) : hint ? (
        <span className="ch-hint muted">{hint}</span>
      ) : null}
    </label>
  );
}

function ConfigCard() {
  const scenario = useChannel((s) => s.form.scenario);
  const format = useChannel((s) => s.form.format);
  const running = useChannel((s) => s.running);
  const layout = useDesigner((s) => s.valid);
  const fleetBlocked = scenario === "fleet" && !layout;
  return (
    <section className="card ch-card" data-testid="ch-config" aria-label="Scenario">
      <header className="ch-card-head">
        <h2 className="section-title">Scenario</h2>
      </header>
      <div className="ch-card-body">
        <div className="ch-segmented" role="radiogroup" aria-label="Scenario">
          {(
            [
              ["seed003", "Seed 003 preset"],
              ["fleet", "My fleet"],
            ] as const
          ).map(([id, label]) => (
            <button
              key={id}
              type="button"
              role="radio"
              aria-checked={scenario === id}
              className={`btn small${scenario === id ? " primary" : ""}`}
              data-testid={`ch-scenario-${id}`}
              onClick={() => setField("scenario", id)}
            >
              {label}
            </button>
          ))}
        </div>
        {scenario === "seed003" ? (
          <p className="muted ch-note" data-testid="ch-seed003-note">
            Bacco, Colucci, Gotta 2017: every packet is sent three times in random slots and a receiver that decodes one
            copy removes the others from the collisions (
            <abbr title="Contention Resolution Diversity Slotted ALOHA with 3 replicas">3-CRDSA</abbr>); 64 slots per 13
            ms block of random-access slots, 182 B carried per slot, 0.52 s round trip; a new exchange every second on
            average, its size drawn from the paper's three heavy-tailed (Pareto) sizes. CoAP through a proxy with 1 to
            100 requests in flight per device (<abbr title="CoAP's NSTART parameter, 1 by default">NSTART</abbr>),
            against MQTT over TCP.
          </p>
        ) : fleetBlocked ? (
          <div className="empty" data-testid="ch-no-layout">
            <strong>No layout open</strong>
            The fleet's message sizes come from the designer's layout: open or create one, then come back.
          </div>
        ) : (
          <p className="muted ch-note">
            {layout!.name}: messages measured from the designer's samples in the chosen format; every device is a
            terminal on the channel.
          </p>
        )}
        {scenario === "fleet" ? (
          <div className="ch-grid">
            <FleetSource />
            <Field name="devices" label="Devices" />
            <Field name="perDay" label="Messages / day" />
            <label className="ch-field">
              <span className="ch-label">Format</span>
              <select
                className="input"
                value={format}
                data-testid="ch-format"
                onChange={(e) => setField("format", e.target.value as ChannelForm["format"])}
              >
                {FORMAT_IDS.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </select>
            </label>
            <Field
              name="stacks"
              label="Stacks"
              hint="coap:N (N requests in flight at once, CoAP's NSTART) or mqtt, comma-separated"
              wide
            />
            <Field name="replicas" label="Copies per packet (1 = plain slotted ALOHA)" />
            <Field name="slots" label="Slots per random-access block" />
            <Field name="blockMs" label="Block duration (ms)" />
            <Field name="slotBytes" label="Bytes carried per slot" />
            <Field name="rtt" label="Round trip (s)" />
          </div>
        ) : null}
        <div className="ch-grid">
          <Field name="horizon" label="Seconds of arrivals" />
          <Field name="seed" label="Simulator seed" />
        </div>
        <div className="ch-actions">
          <button
            type="button"
            className="btn primary"
            data-testid="ch-run"
            disabled={running || fleetBlocked}
            onClick={runSimulation}
          >
            Simulate
          </button>
          {running ? (
            <button type="button" className="btn small" data-testid="ch-cancel" onClick={cancelSimulation}>
              Cancel
            </button>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function ResultCard() {
  const running = useChannel((s) => s.running);
  const progress = useChannel((s) => s.progress);
  const error = useChannel((s) => s.error);
  const result = useChannel((s) => s.result);
  const ms = useChannel((s) => s.ms);
  const pct = Math.round((progress?.fraction ?? 0) * 100);
  return (
    <section className="card ch-card ch-result" data-testid="ch-result" aria-label="Result">
      <header className="ch-card-head">
        <h2 className="section-title">Result</h2>
        <span className="spacer" />
        {ms !== null && !running ? (
          <span className="muted ch-small">simulated in {(ms / 1000).toFixed(1)} s</span>
        ) : null}
      </header>
      <div className="ch-card-body">
        {running ? (
          <div className="ch-running">
            <span data-testid="ch-progress-label">{progress?.label ?? "starting"}</span>
            <div
              className="ch-progress"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct}
              data-testid="ch-progress"
            >
              <div className="ch-progress-bar" style={{ width: `${pct}%` }} />
            </div>
          </div>
        ) : null}
        {error ? (
          <p className="ch-error" role="alert" data-testid="ch-error">
            {error}
          </p>
        ) : null}
        {!result && !running ? (
          <div className="empty" data-testid="ch-empty">
            <strong>No simulation yet</strong>
            Choose the seed 003 preset or your fleet and press <em>Simulate</em>: offered load, collision probability,
            completion time p50/p95/p99 and goodput per stack appear here, with completion time against load and per
            number of requests in flight.
          </div>
        ) : null}
        {result && !running ? (
          result.kind === "seed003" ? (
            <Seed003Results r={result} />
          ) : (
            <FleetResults r={result} />
          )
        ) : null}
      </div>
    </section>
  );
}

/** Where the fleet inputs came from, while they still hold the cost scenario's values. */
function FleetSource() {
  const from = useChannel((s) =>
    s.fleetFrom && s.form.devices === s.fleetFrom.devices && s.form.perDay === s.fleetFrom.perDay ? s.fleetFrom : null,
  );
  return from ? (
    <p className="muted ch-hint ch-fleet-from" data-testid="ch-fleet-from">
      Devices and messages per day from the cost scenario “{from.scenario}” (Decide → Fleet cost).
    </p>
  ) : null;
}

export function ChannelPage() {
  useEffect(() => void enterChannelProject(), []);
  return (
    <>
      <header className="topbar">
        <BackLink testId="ch-back" />
        <span className="divider-v" aria-hidden="true" />
        <h1 className="ch-title">Channel</h1>
        <span className="muted ch-small">
          random-access satellite return link: CoAP vs MQTT, as in Bacco et al. 2017
        </span>
        <div className="spacer" />
        <ThemeToggle />
      </header>
      <main className="ch-page" data-testid="channel-page">
        <ConfigCard />
        <ResultCard />
      </main>
    </>
  );
}
