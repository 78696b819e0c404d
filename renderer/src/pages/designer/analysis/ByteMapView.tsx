// One sample's bytes in hex and ASCII, coloured by the field that owns them; hover or click links bytes and fields.
import { useMemo, useState, type MouseEvent } from "react";
import { FORMAT_IDS, type FormatId, type Layout, type Span } from "#codecs";
import type { ByteMap } from "#codecs/analysis";
import { useAnalysis } from "../../../state/analysis.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useSettings } from "../../../state/settings.ts";
import { flatten } from "../../../state/tree.ts";
import { Icon } from "../../../ui/Icon.tsx";
import { fieldTint, framingTint } from "../colors.ts";

const ROW = 16;

interface Owner {
  span: Span;
  /** index of the top-level field (colour), -1 for framing */
  top: number;
}

function owners(map: ByteMap, topIndex: Map<string, number>): Owner[] {
  const out: Owner[] = new Array(map.bytes.length);
  for (const span of map.spans) {
    const topId = span.field.split("/")[0] ?? "";
    const top = span.field === "" ? -1 : (topIndex.get(topId) ?? -1);
    for (let i = span.start; i < span.end; i++) out[i] = { span, top };
  }
  return out;
}

function printable(b: number): string {
  return b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : "·";
}

/** The ids path ("gps/lat") of every field, to match spans against a selected or hovered field. */
function idPaths(layout: Layout): Map<string, string> {
  return new Map(flatten(layout.fields).map((r) => [r.field.id, r.path.join("/")]));
}

function belongs(spanField: string, path: string | undefined): boolean {
  if (!path || !spanField) return false;
  return spanField === path || spanField.startsWith(`${path}/`);
}

function Hex({ map, layout, testId }: { map: ByteMap; layout: Layout; testId: string }) {
  const theme = useSettings((s) => s.theme);
  const hovered = useDesigner((s) => s.hoveredId);
  const selected = useDesigner((s) => s.selectedId);
  const [byteHover, setByteHover] = useState<number | null>(null);
  const topIndex = useMemo(() => new Map(layout.fields.map((f, i) => [f.id, i])), [layout]);
  const paths = useMemo(() => idPaths(layout), [layout]);
  const own = useMemo(() => owners(map, topIndex), [map, topIndex]);
  const names = useMemo(() => new Map(flatten(layout.fields).map((r) => [r.path.join("/"), r.field.name])), [layout]);

  const focusPath = paths.get(hovered ?? "") ?? paths.get(selected ?? "");
  const selectedPath = paths.get(selected ?? "");
  const anyFocus = focusPath !== undefined;

  const idxOf = (e: MouseEvent) => {
    const v = (e.target as HTMLElement).dataset.i;
    return v === undefined ? null : Number(v);
  };
  const onOver = (e: MouseEvent) => {
    const i = idxOf(e);
    setByteHover(i);
    const f = i === null ? "" : (own[i]?.span.field ?? "");
    useDesigner.getState().hover(f ? f.split("/").pop()! : null);
  };
  const onLeave = () => {
    setByteHover(null);
    useDesigner.getState().hover(null);
  };
  const onClick = (e: MouseEvent) => {
    const i = idxOf(e);
    const f = i === null ? "" : (own[i]?.span.field ?? "");
    if (f) useDesigner.getState().select(f.split("/").pop()!);
  };

  const rows = Math.ceil(map.bytes.length / ROW);
  const cls = (i: number, base: string) => {
    const o = own[i];
    const f = o?.span.field ?? "";
    const lit = belongs(f, focusPath);
    const sel = belongs(f, selectedPath);
    let c = base;
    if (anyFocus && !lit && !sel) c += " dim";
    if (lit || sel) c += " lit";
    if (o && o.span.role !== "value") c += ` role-${o.span.role}`;
    return c;
  };
  const bg = (i: number) => {
    const o = own[i];
    return o && o.top >= 0 ? fieldTint(o.top, theme) : framingTint(theme);
  };
  const info = byteHover !== null && own[byteHover] ? own[byteHover]! : null;

  return (
    <div>
      <div
        className="hex"
        data-testid={testId}
        data-length={map.bytes.length}
        onMouseOver={onOver}
        onMouseLeave={onLeave}
        onClick={onClick}
      >
        {Array.from({ length: rows }, (_, r) => {
          const from = r * ROW;
          const to = Math.min(map.bytes.length, from + ROW);
          const idx = Array.from({ length: to - from }, (_, k) => from + k);
          return (
            <div className="hex-row" key={r}>
              <span className="hex-offset">{from.toString(16).padStart(4, "0")}</span>
              <span className="hex-bytes">
                {idx.map((i) => (
                  <span
                    key={i}
                    data-i={i}
                    data-field={own[i]?.span.field ?? ""}
                    className={cls(i, "hex-byte")}
                    style={{ background: bg(i) }}
                  >
                    {map.bytes[i]!.toString(16).padStart(2, "0")}
                  </span>
                ))}
              </span>
              <span className="hex-ascii" aria-hidden="true">
                {idx.map((i) => (
                  <span key={i} data-i={i} className={cls(i, "hex-char")} style={{ background: bg(i) }}>
                    {printable(map.bytes[i]!)}
                  </span>
                ))}
              </span>
            </div>
          );
        })}
      </div>
      <div className="byte-info" data-testid={`${testId}-info`}>
        {info && byteHover !== null
          ? `byte ${byteHover} (0x${byteHover.toString(16)}) · ${info.span.field ? (names.get(info.span.field) ?? info.span.field) : "message framing"} · ${info.span.role} · bytes ${info.span.start}–${info.span.end - 1}`
          : "Hover a byte to see its field; click to select it."}
      </div>
    </div>
  );
}

function Legend({ map, layout }: { map: ByteMap; layout: Layout }) {
  const theme = useSettings((s) => s.theme);
  const hovered = useDesigner((s) => s.hoveredId);
  const selected = useDesigner((s) => s.selectedId);
  const counts = useMemo(() => {
    const m = new Map<string, number>();
    let framing = 0;
    for (const s of map.spans) {
      const top = s.field.split("/")[0] ?? "";
      if (!s.field || s.role !== "value") framing += s.end - s.start;
      else m.set(top, (m.get(top) ?? 0) + s.end - s.start);
    }
    return { m, framing };
  }, [map]);
  return (
    <div className="byte-legend" data-testid="bytemap-legend">
      {layout.fields.map((f, i) => (
        <button
          key={f.id}
          type="button"
          data-testid={`bytemap-legend-${f.key}`}
          className={hovered === f.id || selected === f.id ? "lit" : undefined}
          onMouseEnter={() => useDesigner.getState().hover(f.id)}
          onMouseLeave={() => useDesigner.getState().hover(null)}
          onClick={() => useDesigner.getState().select(f.id)}
        >
          <span className="sw" style={{ background: fieldTint(i, theme) }} />
          {f.name} <span className="faint num">{counts.m.get(f.id) ?? 0} B</span>
        </button>
      ))}
      <button type="button" disabled>
        <span className="sw" style={{ background: framingTint(theme) }} />
        framing, keys, lengths <span className="faint num">{counts.framing} B</span>
      </button>
    </div>
  );
}

function show(v: unknown): unknown {
  if (typeof v === "bigint") return `${v}n`;
  if (v instanceof Uint8Array) return `0x${Array.from(v, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  if (Array.isArray(v)) return v.map(show);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, show(x)]));
  return v;
}

export function ByteMapView({ layout }: { layout: Layout }) {
  const view = useAnalysis((s) => s.byteMap);
  const sizes = useAnalysis((s) => s.sizes);
  const format = useSettings((s) => s.byteMapFormat);
  const sample = useSettings((s) => s.byteMapSample);
  const samples = useSettings((s) => s.samples);
  const set = useSettings((s) => s.set);
  const labels = new Map(sizes?.results.map((r) => [r.info.id, r.info.label]) ?? []);
  const info = sizes?.results.find((r) => r.info.id === format)?.info;

  return (
    <div className="panel">
      <div className="bytemap-toolbar">
        <label className="muted" htmlFor="bm-format">
          Format
        </label>
        <select
          id="bm-format"
          className="select"
          style={{ width: "auto" }}
          value={format}
          data-testid="bytemap-format"
          onChange={(e) => set({ byteMapFormat: e.target.value as FormatId })}
        >
          {FORMAT_IDS.map((f) => (
            <option key={f} value={f}>
              {labels.get(f) ?? f}
            </option>
          ))}
        </select>
        <span className="muted num" data-testid="bytemap-sample">
          Sample {Math.min(sample, samples - 1) + 1} of {samples}
        </span>
        <button
          type="button"
          className="btn small"
          aria-label="Previous sample"
          disabled={sample <= 0}
          onClick={() => set({ byteMapSample: Math.max(0, sample - 1) })}
        >
          <Icon name="chevronLeft" size={12} />
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="bytemap-next"
          onClick={() => set({ byteMapSample: (Math.min(sample, samples - 1) + 1) % samples })}
        >
          Next sample <Icon name="chevronRight" size={12} />
        </button>
        <span className="spacer" />
        {view?.map && (
          <span className="muted num" data-testid="bytemap-size">
            {view.map.bytes.length} bytes
            {view.map.uncompressed ? ` (from ${view.map.uncompressed.bytes.length} before compression)` : ""}
          </span>
        )}
      </div>
      {!view ? (
        <div className="empty">Encoding the sample…</div>
      ) : view.error || !view.map ? (
        <p className="note attention" data-testid="bytemap-error">
          This sample cannot be encoded as {labels.get(view.format) ?? view.format}: {view.error}
        </p>
      ) : view.map.uncompressed ? (
        <>
          <h3 style={{ fontSize: 12, margin: "12px 0 6px" }}>
            Stream before compression ({view.map.uncompressed.bytes.length} B)
          </h3>
          <Hex map={view.map.uncompressed} layout={layout} testId="bytemap-hex" />
          <Legend map={view.map.uncompressed} layout={layout} />
          <h3 style={{ fontSize: 12, margin: "16px 0 6px" }}>Compressed bytes as sent ({view.map.bytes.length} B)</h3>
          <Hex map={view.map} layout={layout} testId="bytemap-compressed" />
          {info && (
            <p className="note">Deflate: {info.implementation}. Compressed bytes no longer belong to single fields.</p>
          )}
        </>
      ) : (
        <>
          <div style={{ marginTop: 12 }}>
            <Hex map={view.map} layout={layout} testId="bytemap-hex" />
          </div>
          <Legend map={view.map} layout={layout} />
          {view.map.bits && (
            <p className="note">
              Bit-packed: a byte shared by two fields takes the colour of the field with most bits in it.
            </p>
          )}
        </>
      )}
      {view?.record != null && (
        <details style={{ marginTop: 12 }}>
          <summary className="muted" style={{ cursor: "pointer", fontSize: 12 }}>
            Sample values
          </summary>
          <pre className="sample-values" data-testid="bytemap-record">
            {JSON.stringify(show(view.record), null, 1)}
          </pre>
        </details>
      )}
    </div>
  );
}
