// Sizes per format: p50/p95/max bars with the platform limit lines, the numbers, savings versus JSON, and fit verdicts.
import { memo, useMemo } from "react";
import { shareOver } from "#codecs";
import { chosenLimits, type Limit } from "./PlatformPicker.tsx";
import { legendSwatches, reachLegendText, SizeBars, type SizeDatum } from "./SizeBars.tsx";
import { airtimeText, airtimeVerdict, shareOverText } from "./verdict.ts";
import type { SizesView as Sizes } from "../../state/analysis.ts";
import { useSettings } from "../../state/settings.ts";
import type { FormatResult } from "../../worker/protocol.ts";
import { fixed1, percent } from "../format.ts";

/**
 * What the chart draws: when none of it changed (an edit that moves no byte) the chart is not drawn
 * again. A bar that is still the previous layout's keeps its last value, faded (the table row says
 * "updating…"), until its worker answers for this layout.
 */
function chartData(sizes: Sizes): SizeDatum[] {
  return sizes.results.map((r) => ({
    format: r.info.id,
    label: r.info.label,
    short: r.info.short,
    p50: r.stats.p50,
    p95: r.stats.p95,
    max: r.stats.max,
    mean: r.stats.mean,
    failed: r.stats.count === 0,
    stale: sizes.stale.includes(r.info.id),
  }));
}

const sameLimits = (a: readonly Limit[], b: readonly Limit[]): boolean =>
  a.length === b.length && a.every((l, i) => l.id === b[i]!.id && l.bytes === b[i]!.bytes);

export const SizesChart = memo(
  function SizesChart({ sizes, limits }: { sizes: Sizes; limits: Limit[] }) {
    const data = useMemo(() => chartData(sizes), [sizes]);
    return <SizeBars data={data} limits={limits} />;
  },
  (a, b) => sameLimits(a.limits, b.limits) && JSON.stringify(chartData(a.sizes)) === JSON.stringify(chartData(b.sizes)),
);

/** The colours the chart of these sizes draws, and its limit lines. */
export function SizesLegend({ sizes, limits }: { sizes: Sizes; limits: Limit[] }) {
  const swatches = useMemo(() => legendSwatches(chartData(sizes), limits), [sizes, limits]);
  return (
    <div className="chart-legend" data-testid="sizes-legend">
      {/* one entry per verdict: its shades (p50 lightest, max darkest), then the verdict once */}
      {(["all", "some", "none"] as const).map((r) => {
        const group = swatches.filter((s) => s.reach === r);
        if (!group.length) return null;
        return (
          <span key={r} className="key" data-reach={r}>
            {group.map((s) => (
              <span key={s.key} className="sw" title={s.label} style={{ background: s.fill, opacity: s.opacity }} />
            ))}
            {reachLegendText(r, limits)}
          </span>
        );
      })}
      {limits.map((l) => (
        <span key={l.id} className="key">
          <span className="line" />
          {l.name} {l.bytes} B
        </span>
      ))}
      {limits.length > 0 && (
        <span className="key muted">
          under each format: {limits.length > 1 ? "the strictest limit its largest message fits" : "whether it fits"}
        </span>
      )}
    </div>
  );
}

export function SizesTable({ sizes }: { sizes: Sizes }) {
  const json = sizes.results.find((r) => r.info.id === "json");
  const base = json && json.stats.count > 0 ? json.stats.mean : null;
  return (
    <div className="table-scroll">
      <table className="data sizes-table" data-testid="sizes-table">
        <thead>
          <tr>
            <th scope="col">Format</th>
            <th scope="col">min</th>
            <th scope="col">mean</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
            <th scope="col">p99</th>
            <th scope="col">max</th>
            <th scope="col" title="Mean size saved versus JSON">
              vs JSON
            </th>
          </tr>
        </thead>
        <tbody>
          {sizes.results.map((r) => (
            <SizeRow key={r.info.id} r={r} base={base} pending={sizes.pending.includes(r.info.id)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One format's row; drawn again only when its numbers, the JSON baseline or its pending state change. */
const SizeRow = memo(
  function SizeRow({ r, base, pending }: { r: FormatResult; base: number | null; pending: boolean }) {
    const s = r.stats;
    const failed = s.count === 0;
    const saved = base !== null && !failed && r.info.id !== "json" ? base - s.mean : null;
    const cell = (stat: "min" | "p50" | "p95" | "p99" | "max") => (
      <td data-testid={`size-${r.info.id}-${stat}`} data-value={failed ? "" : s[stat]}>
        {failed ? "–" : s[stat]}
      </td>
    );
    return (
      <tr
        data-testid={`sizes-row-${r.info.id}`}
        data-pending={pending}
        className={pending ? "pending" : undefined}
        title={r.info.implementation}
      >
        <td>
          {r.info.label}
          {r.info.lossy ? <span className="faint"> (lossy)</span> : null}
          {pending ? <span className="faint"> (updating…)</span> : null}
        </td>
        {cell("min")}
        <td data-testid={`size-${r.info.id}-mean`} data-value={failed ? "" : s.mean}>
          {failed ? "–" : fixed1(s.mean)}
        </td>
        {cell("p50")}
        {cell("p95")}
        {cell("p99")}
        {cell("max")}
        <td data-testid={`saved-${r.info.id}`}>
          {saved === null ? (
            <span className="faint">{r.info.id === "json" ? "baseline" : "–"}</span>
          ) : (
            <span className={saved > 0 ? "saving" : undefined}>
              {saved >= 0 ? "−" : "+"}
              {fixed1(Math.abs(saved))} B ({percent(Math.abs(saved) / base!)})
            </span>
          )}
        </td>
      </tr>
    );
  },
  (a, b) =>
    a.base === b.base &&
    a.pending === b.pending &&
    a.r.info.id === b.r.info.id &&
    a.r.errors === b.r.errors &&
    JSON.stringify(a.r.stats) === JSON.stringify(b.r.stats),
);

export function SizeErrors({ sizes }: { sizes: Sizes }) {
  const failed = sizes.results.filter((r) => r.errors > 0);
  if (!failed.length) return null;
  return (
    <div data-testid="size-errors">
      {failed.map((r) => (
        <p key={r.info.id} className="note attention">
          {r.info.label}:{" "}
          {r.errors === r.measured
            ? "cannot encode this layout"
            : `${r.errors} of ${r.measured} samples could not be encoded`}
          {r.firstError ? ` — ${r.firstError}` : ""}
        </p>
      ))}
    </div>
  );
}

/** Under a "fits": the largest message's airtime and the messages a day the radio's airtime limits allow. */
function AirtimeLine({ platformId, bytes, testId }: { platformId: string; bytes: number; testId: string }) {
  const v = airtimeVerdict(platformId, bytes);
  if (!v) return null;
  return (
    <div
      className={`airtime-text${v.over ? " attention-text" : " faint"}`}
      data-testid={testId}
      data-seconds={v.seconds}
    >
      {airtimeText(v)}
    </div>
  );
}

export function Verdicts({ sizes }: { sizes: Sizes }) {
  const ids = useSettings((s) => s.platforms);
  const { limits, unlimited } = chosenLimits(ids);
  if (!limits.length && !unlimited.length)
    return <p className="note">Choose platforms (Limits ▾) to see whether each format fits.</p>;
  return (
    <>
      {limits.length > 0 && (
        <div className="table-scroll">
          <table className="data" data-testid="verdicts">
            <thead>
              <tr>
                <th scope="col">Format</th>
                {limits.map((l) => (
                  <th key={l.id} scope="col" title={l.name}>
                    {l.name.replace(/ \(.*\)$/, "")} · {l.bytes} B
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sizes.results.map((r) => (
                <tr key={r.info.id}>
                  <td>{r.info.label}</td>
                  {limits.map((l) => {
                    if (r.stats.count === 0)
                      return (
                        <td key={l.id}>
                          <span className="verdict none">–</span>
                        </td>
                      );
                    const maxFits = r.stats.max <= l.bytes;
                    const p95Fits = r.stats.p95 <= l.bytes;
                    const share = shareOver(r.sizes, l.bytes);
                    return (
                      <td
                        key={l.id}
                        data-testid={`verdict-${r.info.id}-${l.id}`}
                        data-fits-max={maxFits}
                        data-fits-p95={p95Fits}
                      >
                        {maxFits ? (
                          <>
                            <span className="verdict fits">✓ fits</span>
                            <AirtimeLine
                              platformId={l.id}
                              bytes={r.stats.max}
                              testId={`airtime-${r.info.id}-${l.id}`}
                            />
                          </>
                        ) : (
                          <span className="verdict over" data-testid={`share-over-${r.info.id}-${l.id}`}>
                            ✗ {shareOverText(share, l.bytes)}
                            {p95Fits ? " · p95 fits" : ""}
                          </span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {unlimited.map((p) => (
        <p key={p.id} className="note">
          {p.name}: no fixed per-message limit ({p.notes[0] ?? "protocol-dependent"}).
        </p>
      ))}
    </>
  );
}
