// The stakeholder report as one print-ready document: the same markup on screen, in the browser's print and in
// Electron's printToPDF. Charts have a fixed width so every medium lays them out alike.
import { useRef, useState, type ReactNode } from "react";
import type { FormatId } from "#codecs";
import { batchCadenceText, type ReportModel } from "#planning";
import { MessagesPerDayChart, ReadingsPerMessageChart } from "./BatchCharts.tsx";
import { chartToPng } from "./exportPng.ts";
import { slug } from "./slug.ts";
import { downloadBlob } from "../../../download.ts";
import type { SizesView } from "../../../state/analysis.ts";
import { SizesChart, SizesLegend } from "../../../ui/sizes/SizesView.tsx";
import { BatteryLifeChart } from "../budget/charts.tsx";
import { ReportBudgetSection } from "../budget/ReportBudgetSection.tsx";
import {
  fleetLabel,
  intervalLabel,
  MonthlyCostChart,
  pricedPlatforms,
  SavingsChart,
  SensitivityChart,
} from "../cost/charts.tsx";
import { crossings } from "../cost/CostTable.tsx";
import { FragmentationPanel } from "../cost/FragmentationPanel.tsx";
import { PriceEditor } from "../cost/PriceEditor.tsx";
import { Table7Panel } from "../cost/Table7Panel.tsx";
import { count, money } from "../money.ts";
import { allTurnsTaken } from "../mountInTurn.ts";

export const CHART_WIDTH = 660;
const HALF = CHART_WIDTH / 2 - 6;

function Chart({
  name,
  title,
  fileBase,
  children,
}: {
  name: string;
  title: string;
  fileBase: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLElement>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    try {
      await allTurnsTaken();
      if (box.current) downloadBlob(await chartToPng(box.current), `${fileBase}-${name}.png`);
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <figure className="report-figure" data-chart={name} ref={box}>
      <figcaption>
        {title}
        <button type="button" className="btn small screen-only" data-testid={`png-${name}`} onClick={() => void save()}>
          PNG
        </button>
        {error ? <span className="attention-text screen-only"> {error}</span> : null}
      </figcaption>
      <div className="report-chart">{children}</div>
    </figure>
  );
}

/** "29 November 2026, 05:01 UTC": the date a board reads, the same on every machine. */
const DATE = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

export function ReportDocument({ model, sizes }: { model: ReportModel; sizes: SizesView }) {
  const f = model.fleet;
  const cur = f.currency;
  const fileBase = slug(model.title);
  const unpriced = new Map(model.unpriced.map((u) => [u.platformId, u]));
  const limits = model.fit.platforms.map((p) => ({ id: p.id, name: p.name, bytes: p.limit }));
  const priced = pricedPlatforms(f);
  const labels = Object.fromEntries(f.cells.map((c) => [c.format, c.formatLabel])) as Partial<Record<FormatId, string>>;
  const shownSizes: SizesView = { ...sizes, results: sizes.results.filter((r) => r.stats.count > 0) };
  return (
    <article className="report-doc" data-testid="report-doc">
      <header className="report-head">
        <h1 data-testid="report-title">{model.title}</h1>
        <p className="report-subtitle">{model.subtitle}</p>
        <p className="muted" data-testid="report-meta">
          Layout “{model.layout.name}”
          {model.layout.version === null ? " (not saved yet)" : `, version ${model.layout.version}`} · scenario “
          {f.scenario.name}” · {DATE.format(new Date(model.generatedAt))} UTC
        </p>
      </header>

      <section data-testid="report-summary">
        <h2>Summary</h2>
        <p className="report-summary">{model.summary.text}</p>
      </section>

      <section>
        <h2>Layout summary</h2>
        <p>
          <strong>{model.layout.name}</strong>: {model.layout.fieldCount} fields. {model.layout.description}
        </p>
        <table className="data compact text">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Unit</th>
            </tr>
          </thead>
          <tbody>
            {model.layout.fields.map((x) => (
              <tr key={x.key}>
                <td className="mono">{x.key}</td>
                <td>{x.name}</td>
                <td>{x.type}</td>
                <td>{x.unit}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section>
        <h2>Message sizes</h2>
        <p className="muted">
          {count(model.samples.count)} samples, seed {model.samples.seed}: bytes per message in each format; bars are
          p50, p95 and max, dashed lines the platform limits.
        </p>
        <Chart name="sizes" title="Message size per format" fileBase={fileBase}>
          <div style={{ width: CHART_WIDTH }}>
            <SizesChart sizes={shownSizes} limits={limits} />
            <SizesLegend sizes={shownSizes} limits={limits} />
          </div>
        </Chart>
        <table className="data compact" data-testid="report-sizes">
          <thead>
            <tr>
              <th scope="col">Format</th>
              <th scope="col">min</th>
              <th scope="col">mean</th>
              <th scope="col">p95</th>
              <th scope="col">max</th>
              <th scope="col">vs JSON (mean)</th>
            </tr>
          </thead>
          <tbody>
            {model.sizes.map((s) => (
              <tr key={s.format}>
                <td>
                  {s.label}
                  {s.lossy ? " (lossy)" : ""}
                </td>
                {s.stats.count === 0 ? (
                  <td colSpan={5} className="faint">
                    cannot encode this layout
                  </td>
                ) : (
                  <>
                    <td>{s.stats.min}</td>
                    <td>{s.stats.mean.toFixed(1)}</td>
                    <td>{s.stats.p95}</td>
                    <td>{s.stats.max}</td>
                    <td className={s.savingVsJson !== null && s.savingVsJson > 0 ? "saving" : undefined}>
                      {s.savingVsJson === null
                        ? s.format === "json"
                          ? "baseline"
                          : "–"
                        : `−${s.savingVsJson.toFixed(1)} B`}
                    </td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {model.batch && (
        <section data-testid="report-batch">
          <h2>Readings per message</h2>
          <p className="muted">
            {batchCadenceText(model.batch)}; a message carries several, so fewer messages are sent and the oldest
            reading of a message waits for it. Sizes and costs above and below are per message.
          </p>
          <div className="report-pair">
            <Chart name="batch-readings" title="Readings per message, per format" fileBase={fileBase}>
              <ReadingsPerMessageChart formats={model.batch.formats} width={HALF} height={190} />
            </Chart>
            <Chart name="batch-messages" title="Messages a day per device, per format" fileBase={fileBase}>
              <MessagesPerDayChart formats={model.batch.formats} width={HALF} height={190} />
            </Chart>
          </div>
          <table className="data compact">
            <thead>
              <tr>
                <th scope="col">Format</th>
                <th scope="col">readings per message</th>
                <th scope="col">messages per day</th>
                <th scope="col">oldest reading waits</th>
              </tr>
            </thead>
            <tbody>
              {model.batch.formats.map((f) => (
                <tr key={f.format}>
                  <td>{f.label}</td>
                  <td>{f.readingsPerMessage}</td>
                  <td>{f.messagesPerDay.toFixed(1)}</td>
                  <td>{f.oldestWaitMinutes === null ? "–" : `${count(f.oldestWaitMinutes)} min`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section>
        <h2>Platform fit</h2>
        {model.fit.platforms.length === 0 ? (
          <p className="muted">No chosen platform has a per-message limit.</p>
        ) : (
          <table className="data compact" data-testid="report-fit">
            <thead>
              <tr>
                <th scope="col">Format</th>
                {model.fit.platforms.map((p) => (
                  <th key={p.id} scope="col">
                    {p.name.replace(/ \(.*\)$/, "")} {p.limit} B
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {model.fit.rows.map((r) => (
                <tr key={r.format}>
                  <td>{r.label}</td>
                  {r.cells.map((c) => (
                    <td key={c.platformId}>
                      {c.fitsMax ? (
                        <span className="verdict fits">✓ fits</span>
                      ) : (
                        <span className="verdict over">
                          ✗ {Math.round(c.shareOver * 100)} % of samples over{c.fitsP95 ? " · p95 fits" : ""}
                        </span>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {model.fit.unlimited.length ? (
          <p className="note">No fixed per-message limit: {model.fit.unlimited.join(", ")}.</p>
        ) : null}
      </section>

      <section>
        <h2>Fleet cost</h2>
        <p className="muted">
          {count(f.scenario.devices)} devices × {count(f.messagesPerDay, 2)} messages/day = {count(f.messagesPerMonth)}{" "}
          messages per 30-day month, over {f.scenario.months} month{f.scenario.months === 1 ? "" : "s"}, in {cur}.
        </p>
        <table className="data compact report-cost" data-testid="report-cost">
          <thead>
            <tr>
              <th scope="col">Format</th>
              <th scope="col">Platform</th>
              <th scope="col">per month</th>
              <th scope="col">p95 / max</th>
              <th scope="col">
                {f.scenario.months} month{f.scenario.months === 1 ? "" : "s"}
              </th>
              <th scope="col">saving vs JSON</th>
              <th scope="col">notes</th>
            </tr>
          </thead>
          <tbody>
            {f.cells.map((c) => (
              <tr key={`${c.format}-${c.platformId}`}>
                <td>{c.formatLabel}</td>
                <td className="wrap">{c.platformName}</td>
                <td>
                  {c.monthly.exact === undefined ? (
                    <span title={unpriced.get(c.platformId)?.reason}>
                      {unpriced.get(c.platformId)?.kind === "no-rate" ? "no exchange rate" : "no public price"}
                    </span>
                  ) : (
                    money(c.monthly.exact, cur)
                  )}
                </td>
                <td className="pair">
                  {money(c.monthly.p95, cur)} / {money(c.monthly.max, cur)}
                </td>
                <td>{money(c.total, cur)}</td>
                <td>{c.savingVsJson === null || c.format === "json" ? "–" : money(c.savingVsJson, cur)}</td>
                <td className="wrap">
                  {[c.fitsMax ? null : `over ${c.limit} B: ${c.fragmentation.fragments.max} msgs/record`, crossings(c)]
                    .filter(Boolean)
                    .join("; ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {f.warnings.map((w) => (
          <p key={w} className="note attention">
            {w}
          </p>
        ))}
        {model.unpriced
          .filter((u) => u.kind === "no-price")
          .map((u) => (
            <p key={u.platformId} className="note" data-testid={`unpriced-${u.platformId}`}>
              {u.reason}.
            </p>
          ))}
        {/* on screen only: the scenario's prices, set here as on the cost page (the same editor, the same store) */}
        <div className="screen-only report-prices" data-testid="report-prices">
          <h3>Prices</h3>
          <p className="muted">
            Set or correct a platform&apos;s price here: the summary, the tables and the charts follow. Platforms
            without a public price list come first.
          </p>
          {[...f.scenario.platforms]
            .sort((a, b) => Number(unpriced.has(b)) - Number(unpriced.has(a)))
            .map((id) => (
              <PriceEditor key={id} s={f.scenario} platformId={id} />
            ))}
        </div>
        {priced.map(([pid, name]) => (
          <div key={pid} className="report-pair">
            <Chart name={`cost-${pid}`} title={`${name}: monthly cost`} fileBase={fileBase}>
              <MonthlyCostChart result={f} platformId={pid} width={HALF} height={190} />
            </Chart>
            {f.cells.some((c) => c.format === "json" && c.platformId === pid) ? (
              <Chart name={`savings-${pid}`} title={`${name}: saved per month versus JSON`} fileBase={fileBase}>
                <SavingsChart result={f} platformId={pid} width={HALF} height={190} />
              </Chart>
            ) : null}
          </div>
        ))}
        {priced.map(([pid, name]) => (
          <div key={pid} className="report-pair">
            <Chart name={`fleet-${pid}`} title={`${name}: monthly cost over fleet size`} fileBase={fileBase}>
              <SensitivityChart
                points={f.byFleet[pid] ?? []}
                labels={labels}
                currency={cur}
                xLabel={fleetLabel}
                width={HALF}
                height={200}
              />
            </Chart>
            <Chart name={`interval-${pid}`} title={`${name}: over reporting interval`} fileBase={fileBase}>
              <SensitivityChart
                points={f.byInterval[pid] ?? []}
                labels={labels}
                currency={cur}
                xLabel={intervalLabel}
                width={HALF}
                height={200}
              />
            </Chart>
          </div>
        ))}
      </section>

      {model.budget ? (
        <section data-testid="report-battery">
          <h2>Battery life</h2>
          <ReportBudgetSection budget={model.budget} />
          <Chart
            name="battery-life"
            title={`${model.budget.platformName}: battery life per format`}
            fileBase={fileBase}
          >
            <BatteryLifeChart rows={model.budget.rows} width={CHART_WIDTH} height={200} />
          </Chart>
        </section>
      ) : null}

      {model.table7 ? (
        <section>
          <h2>Paper Table 7</h2>
          <Table7Panel />
        </section>
      ) : null}

      <section>
        <h2>Fragmentation</h2>
        <FragmentationPanel result={f} />
      </section>

      <section>
        <h2>Assumptions and sources</h2>
        <ul className="report-list">
          {model.assumptions.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
        <table className="data compact text" data-testid="report-sources">
          <thead>
            <tr>
              <th scope="col">Platform</th>
              <th scope="col">Price used</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {model.sources.map((s) => (
              <tr key={s.platformId}>
                <td>{s.name}</td>
                <td className="wrap">{s.price}</td>
                <td className="wrap">{s.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="note" data-testid="report-references">
          Reference: {model.references.join("; ")}.
        </p>
      </section>
    </article>
  );
}
