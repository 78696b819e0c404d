// The scenario's inputs: fleet, cadence, period, currency, formats and platforms, prices and exchange rates.
import { CODECS, FORMAT_IDS } from "#codecs";
import { type Billing, billingFor, type Currency, type FleetScenario, messagesPerDay, PLATFORMS } from "#planning";
import { editScenario } from "../decideStore.ts";
import { NumberInput, Row } from "../inputs.tsx";
import { PriceEditor } from "./PriceEditor.tsx";
import { TransportEditor } from "./TransportEditor.tsx";

const CURRENCIES: Currency[] = ["EUR", "USD", "GBP", "CHF"];

function currencyOf(b: Billing | undefined): string | undefined {
  if (!b) return undefined;
  return b.kind === "monthly-plan" ? (b.fee ?? b.overagePrice)?.currency : b.price?.currency;
}

export function ScenarioForm({ s }: { s: FleetScenario }) {
  const toggle = <T extends string>(list: readonly T[], v: T): T[] =>
    list.includes(v) ? list.filter((x) => x !== v) : [...list, v];
  const foreign = [
    ...new Set(
      s.platforms
        .map((p) => currencyOf(billingFor(s, p)))
        .filter((c): c is Currency => c !== undefined && c !== s.currency),
    ),
  ];
  return (
    <div className="decide-form" data-testid="scenario-form">
      <section className="decide-section">
        <h3>Fleet</h3>
        <Row label="Name">
          <input
            className="input"
            value={s.name}
            maxLength={80}
            data-testid="scenario-name"
            aria-label="Scenario name"
            onChange={(e) => e.target.value.trim() && editScenario({ name: e.target.value })}
          />
        </Row>
        <Row label="Devices">
          <NumberInput
            label="Devices"
            value={s.devices}
            integer
            min={0}
            max={1_000_000_000}
            testId="devices"
            onCommit={(v) => v !== undefined && editScenario({ devices: v })}
          />
        </Row>
        <Row
          label="Reporting"
          hint={
            <span className="num">
              {messagesPerDay(s.cadence).toLocaleString("en-US", { maximumFractionDigits: 2 })} messages per device and
              day
            </span>
          }
        >
          <div className="decide-inline">
            <div className="segmented" role="group" aria-label="Cadence">
              <button
                type="button"
                aria-pressed={s.cadence.kind === "per-day"}
                data-testid="cadence-per-day"
                onClick={() =>
                  editScenario({
                    cadence: { kind: "per-day", messagesPerDay: Math.max(1, Math.round(messagesPerDay(s.cadence))) },
                  })
                }
              >
                per day
              </button>
              <button
                type="button"
                aria-pressed={s.cadence.kind === "interval"}
                data-testid="cadence-interval"
                onClick={() =>
                  editScenario({
                    cadence: { kind: "interval", minutes: Math.max(1, Math.round(1440 / messagesPerDay(s.cadence))) },
                  })
                }
              >
                every …
              </button>
            </div>
            {s.cadence.kind === "per-day" ? (
              <NumberInput
                label="Messages per day"
                value={s.cadence.messagesPerDay}
                min={0.001}
                max={100_000}
                testId="per-day"
                width={80}
                onCommit={(v) => v !== undefined && editScenario({ cadence: { kind: "per-day", messagesPerDay: v } })}
              />
            ) : (
              <>
                <NumberInput
                  label="Minutes between messages"
                  value={s.cadence.minutes}
                  min={0.01}
                  max={525_600}
                  testId="interval"
                  width={80}
                  onCommit={(v) => v !== undefined && editScenario({ cadence: { kind: "interval", minutes: v } })}
                />
                <span className="muted">min</span>
              </>
            )}
          </div>
        </Row>
        <Row label="Months">
          <NumberInput
            label="Months"
            value={s.months}
            integer
            min={1}
            max={120}
            testId="months"
            width={80}
            onCommit={(v) => v !== undefined && editScenario({ months: v })}
          />
        </Row>
        <Row label="Currency">
          <select
            className="select"
            value={s.currency}
            data-testid="currency"
            aria-label="Currency"
            onChange={(e) => editScenario({ currency: e.target.value as Currency })}
          >
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Row>
        {foreign.map((c) => (
          <Row
            key={c}
            label={`1 ${c} =`}
            hint={
              s.rates[c] === undefined ? (
                <span className="attention-text">
                  needed to show {c} prices in {s.currency}
                </span>
              ) : undefined
            }
          >
            <div className="decide-inline">
              <NumberInput
                label={`${c} to ${s.currency} rate`}
                value={s.rates[c]}
                min={0.000001}
                max={1e6}
                optional
                testId={`rate-${c}`}
                width={90}
                onCommit={(v) =>
                  editScenario((x) => ({
                    ...x,
                    rates:
                      v === undefined
                        ? Object.fromEntries(Object.entries(x.rates).filter(([k]) => k !== c))
                        : { ...x.rates, [c]: v },
                  }))
                }
              />
              <span className="muted">{s.currency}</span>
            </div>
          </Row>
        ))}
        <label className="check decide-check">
          <input
            type="checkbox"
            checked={s.paperTable7}
            data-testid="paper-table7"
            onChange={(e) => editScenario({ paperTable7: e.target.checked })}
          />
          Show the paper's Table 7 beside this scenario
        </label>
      </section>

      <section className="decide-section">
        <h3>Formats</h3>
        <div className="decide-checks">
          {FORMAT_IDS.map((f) => (
            <label key={f} className="check">
              <input
                type="checkbox"
                checked={s.formats.includes(f)}
                data-testid={`format-${f}`}
                disabled={s.formats.length === 1 && s.formats.includes(f)}
                onChange={() => editScenario({ formats: FORMAT_IDS.filter((x) => toggle(s.formats, f).includes(x)) })}
              />
              {CODECS[f].info.label}
            </label>
          ))}
        </div>
      </section>

      <section className="decide-section">
        <h3>Platforms</h3>
        <div className="decide-checks">
          {PLATFORMS.map((p) => (
            <label key={p.id} className="check" title={p.source}>
              <input
                type="checkbox"
                checked={s.platforms.includes(p.id)}
                data-testid={`cost-platform-${p.id}`}
                disabled={
                  (s.platforms.length === 1 && s.platforms.includes(p.id)) ||
                  (!s.platforms.includes(p.id) && s.platforms.length >= 12)
                }
                onChange={() => editScenario({ platforms: toggle(s.platforms, p.id) })}
              />
              <span>
                {p.name}
                {p.status === "discontinued" ? <span className="faint"> (discontinued)</span> : null}
              </span>
              <span className="faint num">{p.uplinkBytes !== undefined ? `${p.uplinkBytes} B` : "no limit"}</span>
            </label>
          ))}
        </div>
      </section>

      <section className="decide-section" data-testid="transport-section">
        <h3>Transport (bytes on air)</h3>
        <TransportEditor s={s} />
      </section>

      <section className="decide-section">
        <h3>Prices</h3>
        {s.platforms.map((id) => (
          <PriceEditor key={id} s={s} platformId={id} />
        ))}
      </section>
    </div>
  );
}
