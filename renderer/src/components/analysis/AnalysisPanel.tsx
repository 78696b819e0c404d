// The live analysis: sample settings and platforms, then sizes / attribution / byte map tabs fed by the worker.
// New sizes are drawn at low priority (a deferred value): a keystroke that arrives meanwhile is painted first.
// Figures that are not for the layout and settings on screen any more stay visible, marked as updating.
import { useDeferredValue, useEffect, useState, type ReactNode } from "react";
import type { Layout } from "#codecs";
import { AttributionView } from "./AttributionView.tsx";
import { ByteMapView } from "./ByteMapView.tsx";
import { chosenLimits, PlatformPicker } from "./PlatformPicker.tsx";
import { SizeErrors, SizesChart, SizesLegend, SizesTable, Verdicts } from "./SizesView.tsx";
import { perfRendered } from "../../perf.ts";
import { useAnalysis } from "../../state/analysis.ts";
import { useDesigner } from "../../state/designer.ts";
import { SAMPLE_COUNTS, useSettings, type AnalysisTab } from "../../state/settings.ts";
import { refineAgain, stopRefining } from "../../worker/controller.ts";
import { ms } from "../common/format.ts";
import { OnAirPanel } from "../transport/OnAirPanel.tsx";

const TABS: { id: AnalysisTab; label: string }[] = [
  { id: "sizes", label: "Sizes" },
  { id: "attribution", label: "Per field" },
  { id: "bytemap", label: "Byte map" },
];

function SeedInput() {
  const seed = useSettings((s) => s.seed);
  const set = useSettings((s) => s.set);
  const [text, setText] = useState(String(seed));
  useEffect(() => setText(String(seed)), [seed]);
  const bad = !/^-?\d{1,10}$/.test(text.trim());
  return (
    <label>
      Seed
      <input
        className={`input seed num${bad ? " invalid" : ""}`}
        value={text}
        data-testid="seed"
        aria-invalid={bad}
        onChange={(e) => {
          setText(e.target.value);
          if (/^-?\d{1,10}$/.test(e.target.value.trim())) set({ seed: Number(e.target.value) | 0 });
        }}
      />
    </label>
  );
}

function Controls() {
  const samples = useSettings((s) => s.samples);
  const set = useSettings((s) => s.set);
  const computing = useAnalysis((s) => s.computing);
  const timings = useAnalysis((s) => s.sizes?.timings);
  const issueCount = useDesigner((s) => s.issueCount);
  return (
    <div className="analysis-controls">
      <label>
        Samples
        <select
          className="select"
          value={samples}
          data-testid="samples"
          onChange={(e) => set({ samples: Number(e.target.value), byteMapSample: 0 })}
        >
          {SAMPLE_COUNTS.map((n) => (
            <option key={n} value={n}>
              {n.toLocaleString("en")}
            </option>
          ))}
        </select>
      </label>
      <SeedInput />
      <PlatformPicker />
      <span className="compute-state" data-testid="compute-state" data-computing={computing}>
        {issueCount > 0
          ? "showing the last valid layout"
          : computing
            ? "computing…"
            : timings
              ? `encoded in ${ms(timings.generate + timings.measure)}`
              : ""}
      </span>
    </div>
  );
}

/** A large run's refinement: how far it is, and a way to stop it (or to start it again once stopped). */
function Refinement({ layoutKey, samples }: { layoutKey: number; samples: number }) {
  const refining = useAnalysis((s) => (s.refining?.layoutKey === layoutKey ? s.refining.measured : null));
  const stopped = useAnalysis((s) => s.stopped);
  if (stopped)
    return (
      <button type="button" className="btn small" data-testid="sizes-refine" onClick={refineAgain}>
        Refine to {samples.toLocaleString("en")}
      </button>
    );
  return (
    <span className="refining">
      <progress
        max={samples}
        value={refining ?? undefined}
        aria-label="Samples measured"
        data-testid="sizes-progress"
        data-measured={refining ?? ""}
      />
      <button type="button" className="btn small ghost" data-testid="sizes-stop" onClick={stopRefining}>
        Stop
      </button>
    </span>
  );
}

/** The layout the attribution and byte map tabs explain: read only while one of them is open. */
function ValidLayout({ children }: { children: (layout: Layout) => ReactNode }) {
  const valid = useDesigner((s) => s.valid);
  return valid ? <>{children(valid)}</> : null;
}

export function AnalysisPanel() {
  const tab = useSettings((s) => s.tab);
  const set = useSettings((s) => s.set);
  const sizes = useDeferredValue(useAnalysis((s) => s.sizes));
  const error = useAnalysis((s) => s.error);
  const stopped = useAnalysis((s) => s.stopped);
  // narrow reads: the panel is not drawn again for an edit that changes neither
  const fieldCount = useDesigner((s) => (s.valid ? s.valid.fields.length : null));
  const layoutName = useDesigner((s) => s.valid?.name ?? "");
  const validKey = useDesigner((s) => s.validKey);
  const unchecked = useDesigner((s) => s.checked !== s.history.present);
  const platforms = useSettings((s) => s.platforms);
  const samples = useSettings((s) => s.samples);
  const seed = useSettings((s) => s.seed);
  const { limits } = chosenLimits(platforms);
  // the figures on screen are for an older layout, or other samples, or an edit is not checked yet
  const outdated =
    !!sizes && (unchecked || sizes.layoutKey !== validKey || sizes.samples !== samples || sizes.seed !== seed);

  // the bars for this layout are on screen now: close the edit → bars measurement
  useEffect(() => {
    if (sizes)
      perfRendered(sizes.layoutKey, {
        zlib: sizes.results.some((r) => r.info.id === "struct-zlib") && !sizes.stale.includes("struct-zlib"),
        complete: sizes.pending.length === 0,
      });
  }, [sizes]);

  const zlib = sizes?.results.find((r) => r.info.id === "struct-zlib");

  return (
    <>
      <Controls />
      <div className="tabs" role="tablist" aria-label="Analysis">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === t.id}
            data-testid={`tab-${t.id}`}
            onClick={() => set({ tab: t.id })}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        className="analysis-body"
        role="tabpanel"
        data-testid={`panel-${tab}`}
        data-layout-key={sizes?.layoutKey ?? ""}
      >
        {error && <p className="note attention">{error}</p>}
        {fieldCount === null ? (
          <div className="empty">
            <strong>Nothing to measure yet</strong>
            Fix the layout problems shown in the inspector.
          </div>
        ) : fieldCount === 0 ? (
          <div className="empty" data-testid="analysis-empty">
            <strong>No fields yet</strong>
            Add fields from the palette to see every format's size here.
          </div>
        ) : !sizes ? (
          <div className="empty">Encoding {samples.toLocaleString("en")} samples…</div>
        ) : tab === "sizes" ? (
          <>
            <div
              className={`panel sizes-panel${outdated ? " outdated" : ""}`}
              data-testid="sizes-panel"
              data-stale={outdated}
            >
              <h3>
                Message size per format{" "}
                <span className="sub" data-testid="sizes-measured" data-measured={sizes.measured}>
                  {sizes.measured < sizes.samples
                    ? `estimate from the first ${sizes.measured.toLocaleString("en")} of ${sizes.samples.toLocaleString("en")} samples${stopped ? " (refinement stopped)" : ", refining…"}`
                    : `${sizes.samples.toLocaleString("en")} samples`}{" "}
                  · seed {sizes.seed}
                </span>
                {sizes.measured < sizes.samples && <Refinement layoutKey={sizes.layoutKey} samples={sizes.samples} />}
                {outdated && (
                  <span className="updating" data-testid="sizes-updating">
                    updating for your last edit…
                  </span>
                )}
              </h3>
              <SizesChart sizes={sizes} limits={limits} />
              <SizesLegend limits={limits} />
            </div>
            <div className={`panel${outdated ? " outdated" : ""}`} data-stale={outdated}>
              <h3>
                Bytes <span className="sub">mean saved versus JSON in the last column</span>
              </h3>
              <SizesTable sizes={sizes} />
              <SizeErrors sizes={sizes} />
              {zlib && (
                <p className="note" data-testid="zlib-implementation">
                  Struct+Zlib sizes model: {zlib.info.implementation}
                </p>
              )}
            </div>
            <OnAirPanel sizes={sizes} platformIds={platforms} layoutName={layoutName} />
            <div className={`panel${outdated ? " outdated" : ""}`} data-stale={outdated}>
              <h3>
                Fits the platform? <span className="sub">by max (every sample) and p95</span>
              </h3>
              <Verdicts sizes={sizes} />
            </div>
          </>
        ) : tab === "attribution" ? (
          <ValidLayout>{(layout) => <AttributionView layout={layout} />}</ValidLayout>
        ) : (
          <ValidLayout>{(layout) => <ByteMapView layout={layout} />}</ValidLayout>
        )}
      </div>
    </>
  );
}
