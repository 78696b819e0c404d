// Budget: what one message of each format costs the device on each radio — airtime against the duty cycle and
// fair-use limits, energy per message and per reading, and how long the battery lasts — with what-if sliders and
// the device model on the left.
import { useMemo } from "react";
import type { Layout } from "#codecs";
import { type DeviceBudget, evaluateFleet, layoutStackId, messagesPerDay, type FleetScenario } from "#planning";
import { useAnalysis, type SizesView } from "../../../state/analysis.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { keepLast } from "../../../ui/keepLast.ts";
import { usePaintedOnce } from "../../../ui/paintedOnce.ts";
import { activeScenario, useDecide } from "../decideStore.ts";
import { measuredFrom } from "../measured.ts";
import {
  batchText,
  budgetPlatformIds,
  budgetRows,
  energyText,
  intervalText,
  lifeText,
  secondsText,
  type BudgetRow,
  type Region,
} from "./budgetModel.ts";
import { setDetailPlatform, useBudget, whatIfOf } from "./budgetStore.ts";
import { BatteryLifeChart, EnergyPerReadingChart, platformShort } from "./charts.tsx";
import { DeviceForm, WhatIfForm } from "./DeviceForm.tsx";
import { RadioForm } from "./RadioForm.tsx";
import "./budget.css";

// the cost model gives every cell its bytes on air (payload + transport headers) and, for a layout with a batch,
// its readings per message in each format (the Cost page's figures); prices are not needed here
const cellsOf = keepLast(
  (scenario: FleetScenario, sizes: SizesView, layout: Layout, region: Region) =>
    evaluateFleet(
      { ...scenario, platforms: budgetPlatformIds(region, scenario.platforms) },
      measuredFrom(sizes, layout),
      { layout: layoutStackId(layout.name) },
    ).cells,
);

/** "TTN fair use" for "The Things Network fair use (airtime a day)": the matrix's cells are narrow. */
const limitShort = (label: string) => label.replace(/\s*\(.*\)$/, "").replace("The Things Network", "TTN");

/** The few words a cell of the matrix says: the battery life, or why there is none, and a broken limit. */
function LifeCell({ r }: { r: BudgetRow | undefined }) {
  if (!r) return <td className="faint">—</td>;
  const id = `budget-life-${r.format}-${r.platformId}`;
  if (!r.budget)
    return (
      <td data-testid={id} title={r.error ?? undefined}>
        <span className="verdict over">✗ cannot send</span>
      </td>
    );
  const broken = r.budget.limits.filter((l) => !l.ok);
  return (
    <td data-testid={id} data-value={r.budget.batteryLifeYears}>
      <span className="cost-main num">{lifeText(r.budget.batteryLifeYears)}</span>
      {r.messagesPerRecord > 1 ? (
        <div
          className="cost-sub"
          title={`A record over the platform's limit is sent in fragments: ${r.messagesPerRecord.toLocaleString("en-US", { maximumFractionDigits: 2 })} messages a reading`}
        >
          × {r.messagesPerRecord.toLocaleString("en-US", { maximumFractionDigits: 2 })} msgs
        </div>
      ) : null}
      {broken.length ? (
        <div
          className="attention-text cost-sub"
          title={broken.map((l) => `${l.label}: ${secondsText(l.usedS)} of ${secondsText(l.allowedS)}`).join("; ")}
        >
          ✗ {broken.map((l) => limitShort(l.label)).join(", ")}
        </div>
      ) : null}
    </td>
  );
}

function LimitText({ l }: { l: DeviceBudget["limits"][number] }) {
  return (
    <div className={l.ok ? "fits-text" : "attention-text"} title={l.source}>
      {l.ok ? "✓" : "✗"}{" "}
      {l.allowedMessages !== undefined
        ? `${(l.usedMessages ?? 0).toLocaleString("en-US", { maximumFractionDigits: 1 })} of ${l.allowedMessages} messages`
        : `${secondsText(l.usedS)} of ${secondsText(l.allowedS)}`}{" "}
      {l.label}
    </div>
  );
}

function DetailTable({ rows }: { rows: readonly BudgetRow[] }) {
  return (
    <table className="data budget-detail" data-testid="budget-detail">
      <thead>
        <tr>
          <th scope="col">Format</th>
          <th scope="col">On air</th>
          <th scope="col">Airtime / message</th>
          <th scope="col">Airtime / day, limits</th>
          <th scope="col">Energy / message</th>
          <th scope="col">Energy / reading</th>
          <th scope="col">Battery</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.format} data-testid={`budget-row-${r.format}`}>
            <th scope="row">{r.formatLabel}</th>
            <td className="num">{r.bytesOnAir} B</td>
            {r.budget ? (
              <>
                <td className="num">{secondsText(r.budget.airtimePerMessageS)}</td>
                <td className="num wrap">
                  {secondsText(r.budget.airtimePerDayS)}
                  {r.budget.limits.map((l) => (
                    <LimitText key={l.id} l={l} />
                  ))}
                </td>
                <td
                  className="num"
                  data-testid={`budget-energy-${r.format}`}
                  data-value={r.budget.energyPerMessageJ.total}
                >
                  {energyText(r.budget.energyPerMessageJ.total)}
                </td>
                <td className="num">{energyText(r.budget.energyPerReadingJ.total)}</td>
                <td className="num">{lifeText(r.budget.batteryLifeYears)}</td>
              </>
            ) : (
              <td colSpan={5} className="wrap attention-text">
                {r.error}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "With Protobuf on Astrocast the battery lasts 4.2 years; with JSON, 3.1 years." */
function headline(rows: readonly BudgetRow[]): string | null {
  const ok = rows.filter((r) => r.budget);
  if (!ok.length) return null;
  const best = ok.reduce((a, b) => (b.budget!.batteryLifeYears > a.budget!.batteryLifeYears ? b : a));
  const json = ok.find((r) => r.format === "json");
  const tail = json && json !== best ? `; with ${json.formatLabel}, ${lifeText(json.budget!.batteryLifeYears)}` : "";
  return `With ${best.formatLabel} on ${best.platformName} the battery lasts ${lifeText(best.budget!.batteryLifeYears)}${tail}.`;
}

export function BudgetPage() {
  const ready = usePaintedOnce();
  const scenario = useDecide(activeScenario);
  const loadError = useDecide((s) => s.loadError);
  const sizes = useAnalysis((s) => s.sizes);
  const valid = useDesigner((s) => s.valid);
  const budget = useBudget();
  const { device, region, detailPlatform, radio } = budget;
  // a layout with a batch sets each format's readings per message itself (the cells carry it) and its interval is
  // the what-if's starting point
  const batched = valid?.batch !== undefined;
  const whatIf = whatIfOf(budget, scenario ? messagesPerDay(scenario.cadence) : 4, valid);
  const cells = useMemo(
    () => (ready && scenario && sizes && valid ? cellsOf(scenario, sizes, valid, region) : null),
    [ready, scenario, sizes, valid, region],
  );
  const { intervalMinutes } = whatIf;
  const rows = useMemo(
    () => (cells ? budgetRows(cells, { intervalMinutes }, device, radio) : null),
    [cells, intervalMinutes, device, radio],
  );

  if (loadError) return <div className="empty">Could not load the cost scenarios: {loadError}</div>;
  if (!scenario) return <div className="empty">Loading the scenarios…</div>;
  const platforms = rows ? [...new Map(rows.map((r) => [r.platformId, r.platformName])).entries()] : [];
  const formats = rows ? [...new Map(rows.map((r) => [r.format, r.formatLabel])).entries()] : [];
  const detailId = platforms.some(([id]) => id === detailPlatform) ? detailPlatform! : (platforms[0]?.[0] ?? null);
  const detailRows = rows?.filter((r) => r.platformId === detailId) ?? [];
  const detailName = platforms.find(([id]) => id === detailId)?.[1] ?? "";
  return (
    <div className="decide-split" data-testid="budget-page">
      <aside className="decide-side">
        <div className="decide-form">
          <WhatIfForm whatIf={whatIf} batched={batched} />
          <DeviceForm />
        </div>
      </aside>
      <main className="decide-main">
        {!valid || valid.fields.length === 0 ? (
          <div className="empty" data-testid="budget-empty">
            <strong>No layout to budget</strong>
            Add fields in the designer (or fix its problems): airtime and energy come from the measured size of every
            message.
          </div>
        ) : !rows ? (
          <div className="empty" data-testid="budget-computing">
            <strong>{sizes ? "Working out the budget…" : "Measuring message sizes…"}</strong>
            Airtime, energy and battery life per format and platform.
          </div>
        ) : (
          <>
            <p className="budget-headline" data-testid="budget-headline">
              {headline(detailRows)}{" "}
              <span className="muted">
                One reading {intervalText(whatIf.intervalMinutes)}
                {batchText(detailRows)}, a {device.batteryMah.toLocaleString("en-US")} mAh battery.
              </span>
            </p>
            <div className="panel">
              <h3>
                Battery life{" "}
                <span className="sub">
                  per format and platform · LoRaWAN {region} · the mean message, headers included
                </span>
              </h3>
              <div className="table-scroll budget-matrix-wrap">
                <table className="data budget-matrix" data-testid="budget-matrix">
                  <thead>
                    <tr>
                      <th scope="col">Format</th>
                      {platforms.map(([id, name]) => (
                        <th key={id} scope="col" title={name}>
                          {platformShort(id, name)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {formats.map(([f, label]) => (
                      <tr key={f}>
                        <th scope="row">{label}</th>
                        {platforms.map(([id]) => (
                          <LifeCell key={id} r={rows.find((r) => r.format === f && r.platformId === id)} />
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <BatteryLifeChart rows={rows} />
            </div>
            <div className="panel">
              <h3>
                Airtime and energy{" "}
                <select
                  className="select budget-platform"
                  value={detailId ?? ""}
                  aria-label="Platform of the details"
                  data-testid="budget-platform"
                  onChange={(e) => setDetailPlatform(e.target.value)}
                >
                  {platforms.map(([id, name]) => (
                    <option key={id} value={id}>
                      {name}
                    </option>
                  ))}
                </select>
              </h3>
              <DetailTable rows={detailRows} />
              <h4>{detailName}: energy per reading</h4>
              <EnergyPerReadingChart rows={detailRows} />
              {detailId ? (
                <>
                  <h4>
                    {detailName}: radio constants{" "}
                    <span className="sub">
                      · type your own value: every figure on this page and in the report follows
                    </span>
                  </h4>
                  <RadioForm platformId={detailId} platformName={detailName} />
                </>
              ) : null}
            </div>
          </>
        )}
      </main>
    </div>
  );
}
