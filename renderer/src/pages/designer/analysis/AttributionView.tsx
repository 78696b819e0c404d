// Where the bytes go: one stacked bar per format, a segment per top-level field, framing apart, compression as a delta.
import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Layout } from "#codecs";
import type { Attribution } from "#codecs/analysis";
import { useAnalysis } from "../../../state/analysis.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useSettings } from "../../../state/settings.ts";
import { locate } from "../../../state/tree.ts";
import { fixed1 } from "../../../ui/format.ts";
import { niceAxis } from "../../../ui/sizes/axis.ts";
import { fieldColor, framingColor } from "../colors.ts";

type Row = Record<string, number | string>;

const FRAMING = "__framing";
const COMPRESSION = "__compression";

function rowsOf(items: readonly Attribution[], labels: Map<string, string>): Row[] {
  return items.map((a) => {
    const row: Row = { format: labels.get(a.format) ?? a.format, total: a.total, [FRAMING]: a.framing };
    for (const f of a.fields) row[f.fieldId] = f.bytes;
    if (a.compressionDelta !== undefined) row[COMPRESSION] = a.compressionDelta;
    return row;
  });
}

function AttributionTooltip({
  active,
  payload,
  layout,
}: {
  active?: boolean;
  payload?: readonly { payload?: Row }[];
  layout: Layout;
}) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  const hovered = useDesigner.getState().hoveredId ?? useDesigner.getState().selectedId;
  const top = layout.fields
    .map((f) => ({ f, b: Number(row[f.id] ?? 0) }))
    .sort((a, b) => b.b - a.b)
    .slice(0, 6);
  return (
    <div className="card" style={{ padding: "8px 10px", fontSize: 12, maxWidth: 280 }}>
      <strong>{row.format}</strong> <span className="num">{fixed1(Number(row.total))} B mean</span>
      <div className="num muted">framing (keys, tags, lengths, headers): {fixed1(Number(row[FRAMING]))} B</div>
      {row[COMPRESSION] !== undefined && (
        <div className="num muted">compression: {fixed1(Number(row[COMPRESSION]))} B</div>
      )}
      {top.map(({ f, b }) => (
        <div key={f.id} className="num" style={{ fontWeight: hovered === f.id ? 700 : 400 }}>
          {f.name}: {fixed1(b)} B
        </div>
      ))}
    </div>
  );
}

export function AttributionView({ layout }: { layout: Layout }) {
  const attribution = useAnalysis((s) => s.attribution);
  const sizes = useAnalysis((s) => s.sizes);
  const theme = useSettings((s) => s.theme);
  const hovered = useDesigner((s) => s.hoveredId);
  const selected = useDesigner((s) => s.selectedId);
  const labels = useMemo(() => new Map(sizes?.results.map((r) => [r.info.id, r.info.label]) ?? []), [sizes]);
  const data = useMemo(() => (attribution ? rowsOf(attribution.items, labels) : []), [attribution, labels]);

  if (!attribution) return <div className="empty">Attributing bytes to fields…</div>;
  // highlight the top-level field that holds the hovered/selected one
  const focusTop = (() => {
    const id = hovered ?? selected;
    if (!id) return null;
    for (const f of layout.fields) {
      if (f.id === id) return f.id;
      if (f.type.kind === "group" && locate(f.type.fields, id)) return f.id;
    }
    return null;
  })();
  const opacity = (id: string) => (focusTop === null || focusTop === id ? 1 : 0.25);
  const hasCompression = attribution.items.some((a) => a.compressionDelta !== undefined);
  const right = niceAxis(
    Math.max(
      1,
      ...attribution.items.map(
        (a) => a.framing + a.fields.reduce((sum, f) => sum + f.bytes, 0) + Math.max(0, a.compressionDelta ?? 0),
      ),
    ),
  );
  const leftmost = Math.min(0, ...attribution.items.map((a) => a.compressionDelta ?? 0));
  const left = leftmost < 0 ? niceAxis(-leftmost) : null;
  const ticks = left
    ? [
        ...left.ticks
          .slice(1)
          .reverse()
          .map((t) => -t),
        ...right.ticks,
      ]
    : right.ticks;

  return (
    <>
      <div className="panel">
        <h3>
          Bytes per field{" "}
          <span className="sub">mean over {attribution.samples} samples; hover a field in the list to find it</span>
        </h3>
        <div
          className="chart-box"
          style={{ height: Math.max(240, data.length * 30 + 40) }}
          data-testid="attribution-chart"
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={data}
              layout="vertical"
              stackOffset="sign"
              margin={{ top: 4, right: 16, bottom: 4, left: 4 }}
              barCategoryGap="22%"
            >
              <CartesianGrid horizontal={false} stroke="var(--border)" />
              <XAxis
                type="number"
                domain={[left ? -left.max : 0, right.max]}
                ticks={ticks}
                tick={{ fill: "var(--text-muted)", fontSize: 11 }}
                tickLine={false}
                axisLine={{ stroke: "var(--border-strong)" }}
                unit=" B"
              />
              <YAxis
                type="category"
                dataKey="format"
                tick={{ fill: "var(--text-muted)", fontSize: 11 }}
                tickLine={false}
                axisLine={false}
                width={92}
              />
              <Tooltip cursor={{ fill: "var(--surface-2)" }} content={<AttributionTooltip layout={layout} />} />
              <ReferenceLine x={0} stroke="var(--border-strong)" />
              {layout.fields.map((f, i) => (
                <Bar
                  key={f.id}
                  dataKey={f.id}
                  name={f.name}
                  stackId="a"
                  fill={fieldColor(i, theme)}
                  fillOpacity={opacity(f.id)}
                  isAnimationActive={false}
                />
              ))}
              <Bar
                dataKey={FRAMING}
                name="framing"
                stackId="a"
                fill={framingColor(theme)}
                fillOpacity={focusTop === null ? 1 : 0.25}
                isAnimationActive={false}
              />
              {hasCompression && (
                <Bar
                  dataKey={COMPRESSION}
                  name="compression"
                  stackId="a"
                  fill="var(--surface-3)"
                  stroke="var(--text-faint)"
                  strokeDasharray="3 2"
                  isAnimationActive={false}
                />
              )}
            </BarChart>
          </ResponsiveContainer>
        </div>
        <div className="byte-legend" data-testid="attribution-legend">
          {layout.fields.map((f, i) => (
            <button
              key={f.id}
              type="button"
              className={focusTop === f.id ? "lit" : undefined}
              onMouseEnter={() => useDesigner.getState().hover(f.id)}
              onMouseLeave={() => useDesigner.getState().hover(null)}
              onClick={() => useDesigner.getState().select(f.id)}
            >
              <span className="sw" style={{ background: fieldColor(i, theme) }} />
              {f.name}
            </button>
          ))}
          <button type="button" disabled>
            <span className="sw" style={{ background: framingColor(theme) }} />
            framing
          </button>
        </div>
        {hasCompression && (
          <p className="note">
            Compressed formats: the coloured segments are the stream before compression; the dashed segment is what
            compression changes on average (left of 0 when it saves bytes, right when its header costs more than it
            saves), so the net length is the size sent.
          </p>
        )}
      </div>
      <div className="panel">
        <h3>Framing and compression</h3>
        <table className="data" data-testid="attribution-table">
          <thead>
            <tr>
              <th scope="col">Format</th>
              <th scope="col">fields</th>
              <th scope="col">framing</th>
              <th scope="col">compression</th>
              <th scope="col">mean sent</th>
            </tr>
          </thead>
          <tbody>
            {attribution.items.map((a) => {
              const fields = a.fields.reduce((s, f) => s + f.bytes, 0);
              return (
                <tr key={a.format} data-testid={`attribution-row-${a.format}`}>
                  <td>{labels.get(a.format) ?? a.format}</td>
                  <td>{fixed1(fields)} B</td>
                  <td>{fixed1(a.framing)} B</td>
                  <td>
                    {a.compressionDelta === undefined ? (
                      <span className="faint">–</span>
                    ) : (
                      `${fixed1(a.compressionDelta)} B`
                    )}
                  </td>
                  <td>{fixed1(a.total)} B</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
