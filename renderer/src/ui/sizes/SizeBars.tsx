// The designer's size chart drawn as plain SVG: p50/p95/max bars per format, the size axis, the platform limit
// lines. A bar is coloured by how many of the chosen limits it fits (verdict.ts) and each format's name carries the
// strictest limit its largest message fits, so "over Sigfox, fits Kinéis" stays visible with several limits.
// It is redrawn on every edit that moves a byte, so it must be cheap: one component, elements keyed by format and
// statistic, so an update changes attributes and never re-creates a bar (the charting library this replaces
// re-mounted every bar whose value moved and re-ran its selectors on each change).
import { axisLabelRoom, labelRow, labelRows, labelWidth, niceAxis, tickLabel } from "./axis.ts";
import { limitMarks } from "./limitLabels.ts";
import type { Limit } from "./PlatformPicker.tsx";
import { useWidth } from "./useWidth.ts";
import { FIT_TEXT, fitLabel, fitOf, reach, reachColor, type Reach } from "./verdict.ts";

export interface SizeDatum {
  format: string;
  label: string;
  short: string;
  p50: number;
  p95: number;
  max: number;
  mean: number;
  failed: boolean;
  /** the bar is still the previous layout's: drawn faded */
  stale: boolean;
}

export const SIZE_STATS = [
  { key: "p50", label: "p50", color: "var(--bar-p50)" },
  { key: "p95", label: "p95", color: "var(--bar-p95)" },
  { key: "max", label: "max", color: "var(--bar-max)" },
] as const;

type StatKey = (typeof SIZE_STATS)[number]["key"];

/**
 * How one bar is painted: its statistic's colour under every chosen limit, orange over the strictest but under a
 * looser one, red over all (verdict.ts); over a limit p50 is the lightest shade and max the darkest.
 */
export function barStyle(
  value: number,
  stat: StatKey,
  limits: readonly Limit[],
): { fill: string; opacity: number; reach: Reach } {
  const r = reach(value, limits);
  const opacity = r === "all" ? 1 : stat === "p50" ? 0.55 : stat === "p95" ? 0.8 : 1;
  return { fill: reachColor(r, SIZE_STATS.find((s) => s.key === stat)!.color), opacity, reach: r };
}

export interface LegendSwatch {
  key: string;
  label: string;
  fill: string;
  opacity: number;
  /** the verdict the colour stands for, so the legend can say it once for p50, p95 and max */
  reach: Reach;
}

/** What a group of swatches of one verdict says, after its three shades. */
export function reachLegendText(r: Reach, limits: readonly Limit[]): string {
  if (r === "all") return limits.length ? "p50 · p95 · max, within every limit" : "p50 · p95 · max";
  if (r === "some") return `over ${limits[0]!.bytes} B, fits a looser limit`;
  return limits.length > 1 ? "over every limit" : `over ${limits[0]!.bytes} B`;
}

const REACH_ORDER: readonly Reach[] = ["all", "some", "none"];

/**
 * The legend of the bars as drawn: one swatch per colour that appears, from `barStyle` itself, so the legend can
 * never show blue when every bar is red (the report's legend did, over Kinéis's 30 B).
 */
export function legendSwatches(data: readonly SizeDatum[], limits: readonly Limit[]): LegendSwatch[] {
  const drawn = data.filter((d) => !d.failed);
  const strictest = limits[0]?.bytes;
  const wording: Record<Reach, (stat: string) => string> = {
    all: (stat) => stat,
    some: (stat) => `${stat} over ${strictest} B, fits a looser limit`,
    none: (stat) => (limits.length > 1 ? `${stat} over every limit` : `${stat} over ${strictest} B`),
  };
  const out: LegendSwatch[] = [];
  for (const r of REACH_ORDER)
    for (const s of SIZE_STATS) {
      const value = drawn.map((d) => d[s.key]).find((v) => reach(v, limits) === r);
      if (value === undefined) continue;
      const { fill, opacity } = barStyle(value, s.key, limits);
      out.push({ key: `${s.key}-${r}`, label: wording[r](s.label), fill, opacity, reach: r });
    }
  return out;
}

const MARGIN = { top: 16 };
/** one line of text under the axis */
const LINE = 13;
const CATEGORY_GAP = 0.18;
const BAR_GAP = 1;

/** Rectangle with rounded top corners (2 px), as a path. */
function barPath(x: number, y: number, w: number, h: number): string {
  if (h <= 0 || w <= 0) return `M${x},${y}h0`;
  const r = Math.min(2, w / 2, h);
  return `M${x},${y + h}V${y + r}Q${x},${y} ${x + r},${y}H${x + w - r}Q${x + w},${y} ${x + w},${y + r}V${y + h}Z`;
}

export function SizeBars({ data, limits, height = 260 }: { data: SizeDatum[]; limits: Limit[]; height?: number }) {
  const [ref, width] = useWidth();
  const axis = niceAxis(Math.max(1, ...data.map((d) => d.max), ...limits.map((l) => l.bytes)));
  const left = axisLabelRoom(axis.ticks);
  const right = limits.length ? 10 + Math.max(...limits.map((l) => labelWidth(tickLabel(l.bytes)))) : 12;
  const plotW = Math.max(0, width - left - right);
  const band = data.length ? plotW / data.length : 0;
  // each format: its name, and under it its verdict when there are limits; on two or three staggered rows when crowded
  const rows = labelRows(
    data.map((d) => d.short),
    band,
  );
  const perFormat = limits.length ? 2 : 1;
  const bottom = 8 + LINE * perFormat * rows;
  const plotH = height - MARGIN.top - bottom;
  const y = (v: number) => MARGIN.top + plotH * (1 - v / axis.max);
  // labels are centred on their height: half a label of room above the plot's top and above the format names
  const marks = limitMarks(limits, y, 14, MARGIN.top - 6, MARGIN.top + plotH - 7);
  const group = band * (1 - CATEGORY_GAP);
  const barW = Math.max(1, (group - BAR_GAP * (SIZE_STATS.length - 1)) / SIZE_STATS.length);
  const x0 = (i: number) => left + i * band + (band - group) / 2;

  return (
    <div ref={ref} className="chart-box" data-testid="sizes-chart">
      {width > 0 && (
        <svg width={width} height={height} role="img" aria-label="Message size per format: p50, p95 and max bars">
          {axis.ticks.map((t) => (
            <g key={t}>
              <line x1={left} x2={left + plotW} y1={y(t)} y2={y(t)} stroke="var(--border)" />
              <text x={left - 6} y={y(t)} dy="0.32em" textAnchor="end" fontSize={11} fill="var(--text-muted)">
                {tickLabel(t)}
              </text>
            </g>
          ))}
          {SIZE_STATS.map((s, k) => (
            <g key={s.key} className="size-series" data-stat={s.key}>
              {data.map((d, i) => {
                const style = barStyle(d[s.key], s.key, limits);
                const top = y(d.failed ? 0 : d[s.key]);
                return (
                  <path
                    key={d.format}
                    className="size-bar"
                    data-format={d.format}
                    d={barPath(x0(i) + k * (barW + BAR_GAP), top, barW, MARGIN.top + plotH - top)}
                    data-reach={style.reach}
                    fill={style.fill}
                    fillOpacity={(d.stale ? 0.35 : 1) * style.opacity}
                  />
                );
              })}
            </g>
          ))}
          <line
            x1={left}
            x2={left + plotW}
            y1={MARGIN.top + plotH}
            y2={MARGIN.top + plotH}
            stroke="var(--border-strong)"
          />
          {data.map((d, i) => {
            const row = labelRow(i, rows);
            const labelY = MARGIN.top + plotH + 4 + LINE * (1 + row * perFormat);
            const verdict = d.failed ? "" : fitLabel(d.max, limits);
            const r = reach(d.max, limits);
            return (
              <g key={d.format}>
                <text
                  x={left + i * band + band / 2}
                  y={labelY - 2}
                  textAnchor="middle"
                  fontSize={11}
                  fill="var(--text-muted)"
                >
                  {d.short}
                </text>
                {verdict ? (
                  <text
                    x={left + i * band + band / 2}
                    y={labelY + LINE - 2}
                    textAnchor="middle"
                    fontSize={10}
                    fontWeight={600}
                    className="size-fit-label"
                    data-format={d.format}
                    fill={r === "all" ? "var(--text-muted)" : reachColor(r, "")}
                  >
                    {verdict}
                  </text>
                ) : null}
                {/* the hover text of the whole column */}
                <rect x={left + i * band} y={MARGIN.top} width={band} height={plotH} fill="transparent">
                  <title>
                    {`${d.label}: p50 ${d.p50} B · p95 ${d.p95} B · max ${d.max} B · mean ${d.mean.toFixed(1)} B` +
                      limits.map((l) => `\n${l.name} ${l.bytes} B: ${FIT_TEXT[fitOf(d, l.bytes)]}`).join("") +
                      (d.stale ? "\n(updating: still the previous layout's figures)" : "")}
                  </title>
                </rect>
              </g>
            );
          })}
          {marks.map((m) => (
            <g key={m.bytes} className="size-limit" data-bytes={m.bytes}>
              <title>{`${m.names.join(", ")}: ${m.bytes} B per message`}</title>
              <line
                x1={left}
                x2={left + plotW}
                y1={m.lineY}
                y2={m.lineY}
                stroke="var(--text-muted)"
                strokeDasharray="5 4"
              />
              {m.labelY !== m.lineY ? (
                <line x1={left + plotW} x2={left + plotW + 4} y1={m.lineY} y2={m.labelY} stroke="var(--text-muted)" />
              ) : null}
              <text x={left + plotW + 6} y={m.labelY} dy="0.32em" fontSize={11} fill="var(--text-muted)">
                {m.bytes} B
              </text>
            </g>
          ))}
        </svg>
      )}
    </div>
  );
}
