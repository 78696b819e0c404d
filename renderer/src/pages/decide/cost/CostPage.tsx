// Fleet cost: a scenario's inputs on the left; cost per format and platform, charts, Table 7 and fragmentation on the right.
import { useMemo, useState } from "react";
import type { FormatId, Layout } from "#codecs";
import { evaluateFleet, type FleetResult, type FleetScenario, layoutStackId } from "#planning";
import { useDesigner } from "../../../state/layoutStore.ts";
import { keepLast } from "../../../ui/keepLast.ts";
import { activeScenario, addScenario, removeScenario, selectScenario, useDecide } from "../decideStore.ts";
import { measuredFrom } from "../measured.ts";
import {
  fleetLabel,
  intervalLabel,
  MonthlyCostChart,
  pricedPlatforms,
  SavingsChart,
  SensitivityChart,
} from "./charts.tsx";
import { CostTable } from "./CostTable.tsx";
import { FragmentationPanel } from "./FragmentationPanel.tsx";
import { ScenarioForm } from "./ScenarioForm.tsx";
import { Table7Panel } from "./Table7Panel.tsx";
import { useAnalysis, type SizesView } from "../../../state/analysis.ts";
import { usePaintedOnce } from "../../../ui/paintedOnce.ts";

export function ScenarioBar() {
  const doc = useDecide((s) => s.doc);
  const save = useDecide((s) => s.save);
  const saveError = useDecide((s) => s.saveError);
  if (!doc) return null;
  return (
    <div className="scenario-bar">
      <label className="decide-inline">
        <span className="muted">Scenario</span>
        <select
          className="select"
          value={doc.active}
          data-testid="scenario-select"
          aria-label="Scenario"
          onChange={(e) => selectScenario(Number(e.target.value))}
        >
          {doc.scenarios.map((s, i) => (
            <option key={i} value={i}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="btn small"
        data-testid="scenario-copy"
        onClick={() => addScenario("copy")}
        disabled={doc.scenarios.length >= 50}
      >
        Duplicate
      </button>
      <button
        type="button"
        className="btn small"
        data-testid="scenario-paper"
        onClick={() => addScenario("paper")}
        disabled={doc.scenarios.length >= 50}
        title="10 000 devices × 4 messages/day, TN €0.02/MB and Astrocast €0.183/KB, binary units"
      >
        + Paper Table 7
      </button>
      <button
        type="button"
        className="btn small ghost"
        data-testid="scenario-delete"
        onClick={removeScenario}
        disabled={doc.scenarios.length <= 1}
      >
        Delete
      </button>
      <span className="save-state" data-status={save} data-testid="cost-save-state" title={saveError ?? undefined}>
        <span className="dot" aria-hidden="true" />
        {save === "saved"
          ? "Saved"
          : save === "saving"
            ? "Saving…"
            : save === "pending"
              ? "Unsaved changes"
              : `Save failed: ${saveError ?? ""}`}
      </span>
    </div>
  );
}

function Sensitivity({ result }: { result: FleetResult }) {
  const priced = pricedPlatforms(result);
  const [chosen, setChosen] = useState<string | null>(null);
  const pid = chosen && priced.some(([p]) => p === chosen) ? chosen : (priced[0]?.[0] ?? null);
  if (!pid)
    return <p className="note">No chosen platform has a price: enter one under Prices to see how cost grows.</p>;
  const labels = Object.fromEntries(
    result.cells.filter((c) => c.platformId === pid).map((c) => [c.format, c.formatLabel]),
  ) as Partial<Record<FormatId, string>>;
  return (
    <>
      <div className="decide-inline">
        <span className="muted">Platform</span>
        <select
          className="select"
          value={pid}
          data-testid="sensitivity-platform"
          aria-label="Platform of the sensitivity charts"
          onChange={(e) => setChosen(e.target.value)}
        >
          {priced.map(([p, name]) => (
            <option key={p} value={p}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="chart-pair">
        <div>
          <h4>Monthly cost over fleet size</h4>
          <SensitivityChart
            points={result.byFleet[pid] ?? []}
            labels={labels}
            currency={result.currency}
            xLabel={fleetLabel}
          />
        </div>
        <div>
          <h4>Monthly cost over reporting interval ({result.scenario.devices.toLocaleString("en-US")} devices)</h4>
          <SensitivityChart
            points={result.byInterval[pid] ?? []}
            labels={labels}
            currency={result.currency}
            xLabel={intervalLabel}
          />
        </div>
      </div>
    </>
  );
}

const fleetOf = keepLast(
  (scenario: FleetScenario, sizes: SizesView, layoutId: string | undefined, layout: Layout | null) =>
    evaluateFleet(scenario, measuredFrom(sizes, layout), layoutId ? { layout: layoutId } : undefined),
);

export function CostPage() {
  // the page's frame paints first; pricing and its charts follow in a low-priority render
  const ready = usePaintedOnce();
  const scenario = useDecide(activeScenario);
  const loadError = useDecide((s) => s.loadError);
  const sizes = useAnalysis((s) => s.sizes);
  const valid = useDesigner((s) => s.valid);
  const layoutId = valid ? layoutStackId(valid.name) : undefined;
  const result = useMemo(
    () => (ready && scenario && sizes ? fleetOf(scenario, sizes, layoutId, valid) : null),
    [ready, scenario, sizes, layoutId, valid],
  );

  if (loadError) return <div className="empty">Could not load the cost scenarios: {loadError}</div>;
  if (!scenario) return <div className="empty">Loading the scenarios…</div>;
  return (
    <div className="decide-split" data-testid="cost-page">
      <aside className="decide-side">
        <ScenarioForm s={scenario} />
      </aside>
      <main className="decide-main">
        {!valid || valid.fields.length === 0 ? (
          <div className="empty" data-testid="cost-empty">
            <strong>No layout to price</strong>
            Add fields in the designer (or fix its problems): cost comes from the measured size of every message.
          </div>
        ) : !result ? (
          <div className="empty" data-testid="cost-computing">
            <strong>{sizes ? "Pricing every message…" : "Measuring message sizes…"}</strong>
            {sizes
              ? "Cost per format and platform, from every measured message."
              : "The sizes workers are encoding the samples."}
          </div>
        ) : (
          <>
            {result.warnings.map((w) => (
              <p key={w} className="note attention">
                {w}
              </p>
            ))}
            <div className="panel">
              <h3>
                Monthly cost{" "}
                <span className="sub">
                  {result.messagesPerMonth.toLocaleString("en-US")} messages/month · every measured message priced; p95
                  and max price every message at that size
                </span>
              </h3>
              <CostTable result={result} />
            </div>
            <div className="panel" data-testid="cost-charts">
              <h3>
                Monthly cost and saving versus JSON{" "}
                <span className="sub">one chart per platform: their prices differ by orders of magnitude</span>
              </h3>
              {pricedPlatforms(result).length === 0 ? (
                <p className="note">No chosen platform has a price: enter one under Prices.</p>
              ) : null}
              {pricedPlatforms(result).map(([pid, name]) => (
                <div key={pid} className="chart-pair">
                  <div>
                    <h4>{name}: per month</h4>
                    <MonthlyCostChart result={result} platformId={pid} />
                  </div>
                  <div>
                    <h4>{name}: saved per month versus JSON</h4>
                    {result.cells.some((c) => c.format === "json" && c.platformId === pid) ? (
                      <SavingsChart result={result} platformId={pid} />
                    ) : (
                      <p className="note">Add JSON to the formats to compare against it.</p>
                    )}
                  </div>
                </div>
              ))}
            </div>
            <div className="panel">
              <h3>Sensitivity</h3>
              <Sensitivity result={result} />
            </div>
            {scenario.paperTable7 ? (
              <div className="panel">
                <h3>
                  Paper Table 7{" "}
                  <span className="sub">Kumar et al. 2026, 10 000 devices × 4 messages/day × 30 days</span>
                </h3>
                <Table7Panel result={result} />
              </div>
            ) : null}
            <div className="panel">
              <h3>
                Fragmentation <span className="sub">records larger than a platform's message</span>
              </h3>
              <FragmentationPanel result={result} />
            </div>
          </>
        )}
      </main>
    </div>
  );
}
