// The live analysis: sample settings and platforms, then sizes / attribution / byte map tabs fed by the worker.
// New sizes are drawn at low priority (a deferred value): a keystroke that arrives meanwhile is painted first.
// Figures that are not for the layout and settings on screen any more stay visible, marked as updating.
import { useDeferredValue, useEffect, useState, type ReactNode } from "react";
import type { Layout } from "#codecs";
import { AttributionView } from "./AttributionView.tsx";
import { ByteMapView } from "./ByteMapView.tsx";
import { OnAirPanel } from "./OnAirPanel.tsx";
import { ReadingsView } from "./ReadingsView.tsx";
import { perfRendered } from "../../../perf.ts";
import { useAnalysis } from "../../../state/analysis.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { SAMPLE_COUNTS, useSettings, type AnalysisTab } from "../../../state/settings.ts";
import { count, ms } from "../../../ui/format.ts";
import { chosenLimits, PlatformPicker } from "../../../ui/sizes/PlatformPicker.tsx";
import { SizeErrors, SizesChart, SizesLegend, SizesTable, Verdicts } from "../../../ui/sizes/SizesView.tsx";
import { refineAgain, stopRefining } from "../../../worker/controller.ts";

const TABS: { id: AnalysisTab; label: string; title?: string }[] = [
  { id: "sizes", label: "Sizes" },
  { id: "attribution", label: "Per field" },
  { id: "bytemap", label: "Byte map" },
  // short, so the four tabs stay on one line at 1024 px; the view says its full name
  { id: "readings", label: "Readings", title: "Readings per message: many readings in one message" },
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

/** What the workers are doing; drawn alone, since it changes with every edit. */
function ComputeState() {
  const computing = useAnalysis((s) => s.computing);
  const timings = useAnalysis((s) => s.sizes?.timings);
  const issueCount = useDesigner((s) => s.issueCount);
  return (
    <span className="compute-state" data-testid="compute-state" data-computing={computing}>
      {issueCount > 0
        ? "showing the last valid layout"
        : computing
          ? "computing…"
          : timings
            ? `encoded in ${ms(timings.generate + timings.measure)}`
            : ""}
    </span>
  );
}

function Controls() {
  const samples = useSettings((s) => s.samples);
  const set = useSettings((s) => s.set);
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
              {count(n)}
            </option>
          ))}
        </select>
      </label>
      <SeedInput />
      <PlatformPicker />
      <ComputeState />
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
        Refine to {count(samples)}
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

interface Shown {
  layoutKey: number;
  samples: number;
  seed: number;
}

/** The figures on screen are for an older layout, or other samples, or an edit is not checked yet. */
function useOutdated(shown: Shown): boolean {
  const layout = useDesigner((s) => s.checked !== s.history.present || s.validKey !== shown.layoutKey);
  const settings = useSettings((s) => s.samples !== shown.samples || s.seed !== shown.seed);
  return layout || settings;
}

/** the figures are faded only when the update takes longer than a glance */
const FADE_AFTER_MS = 150;

/**
 * The sizes panels, marked while their figures are outdated. Only this wrapper follows the keystrokes (its children
 * are the same elements, so React does not draw them again): the mark is an attribute and, after FADE_AFTER_MS, a
 * class that fades the charts and tables. A plain class rather than a CSS animation: an animated opacity, even a
 * delayed one, gives each faded element a compositor layer of its own for the animation, which the software
 * compositor created and rasterised on every keystroke.
 */
function OutdatedMark({ shown, children }: { shown: Shown; children: ReactNode }) {
  const outdated = useOutdated(shown);
  const [faded, setFaded] = useState(false);
  useEffect(() => {
    if (!outdated) return setFaded(false);
    const t = setTimeout(() => setFaded(true), FADE_AFTER_MS);
    return () => clearTimeout(t);
  }, [outdated]);
  return (
    <div className={`sizes-view${outdated && faded ? " faded" : ""}`} data-testid="sizes-view" data-stale={outdated}>
      {children}
    </div>
  );
}

/** Says why the figures are marked; drawn alone (a span in the heading), not with the panel around it. */
function UpdatingNote({ shown }: { shown: Shown }) {
  if (!useOutdated(shown)) return null;
  return (
    <span className="updating" data-testid="sizes-updating">
      updating for your last edit…
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
  // narrow reads: the panel is not drawn again for an edit that changes neither (the marks of outdated figures
  // follow the edits on their own, OutdatedMark and UpdatingNote)
  const fieldCount = useDesigner((s) => (s.valid ? s.valid.fields.length : null));
  const layoutName = useDesigner((s) => s.valid?.name ?? "");
  const platforms = useSettings((s) => s.platforms);
  const samples = useSettings((s) => s.samples);
  const { limits } = chosenLimits(platforms);

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
            title={t.title}
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
        // figures of every sample and every format (a first estimate or a format still pending is not complete)
        data-complete={sizes ? sizes.measured === sizes.samples && sizes.pending.length === 0 : ""}
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
          <div className="empty">Encoding {count(samples)} samples…</div>
        ) : tab === "sizes" ? (
          <OutdatedMark shown={sizes}>
            <div className="panel sizes-panel" data-testid="sizes-panel">
              <h3>
                Message size per format{" "}
                <span className="sub" data-testid="sizes-measured" data-measured={sizes.measured}>
                  {sizes.measured < sizes.samples
                    ? `estimate from the first ${count(sizes.measured)} of ${count(sizes.samples)} samples${stopped ? " (refinement stopped)" : ", refining…"}`
                    : `${count(sizes.samples)} samples`}{" "}
                  · seed {sizes.seed}
                </span>
                {sizes.measured < sizes.samples && <Refinement layoutKey={sizes.layoutKey} samples={sizes.samples} />}
                <UpdatingNote shown={sizes} />
              </h3>
              <SizesChart sizes={sizes} limits={limits} />
              <SizesLegend sizes={sizes} limits={limits} />
            </div>
            <div className="panel">
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
            <div className="panel">
              <h3>
                Fits the platform? <span className="sub">by max (every sample) and p95</span>
              </h3>
              <Verdicts sizes={sizes} />
            </div>
          </OutdatedMark>
        ) : tab === "attribution" ? (
          <ValidLayout>{(layout) => <AttributionView layout={layout} />}</ValidLayout>
        ) : tab === "readings" ? (
          <ValidLayout>{(layout) => <ReadingsView layout={layout} />}</ValidLayout>
        ) : (
          <ValidLayout>{(layout) => <ByteMapView layout={layout} />}</ValidLayout>
        )}
      </div>
    </>
  );
}
