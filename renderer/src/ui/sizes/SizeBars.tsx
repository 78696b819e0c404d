// The designer's size chart drawn as plain SVG: p50/p95/max bars per format, the size axis, the platform limit
// lines. It is redrawn on every edit that moves a byte, so it must be cheap: one component, elements keyed by
// format and statistic, so an update changes attributes and never re-creates a bar (the charting library
// this replaces re-mounted every bar whose value moved and re-ran its selectors on each change).
import { useLayoutEffect, useRef, useState, type RefObject } from "react";
import { axisLabelRoom, niceAxis, tickLabel } from "./axis.ts";
import type { Limit } from "./PlatformPicker.tsx";

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

/** How one bar is painted: its statistic's colour, or red over the strictest limit (p50 lightest, max darkest). */
export function barStyle(
  value: number,
  stat: StatKey,
  strictest: number | undefined,
): { fill: string; opacity: number } {
  const over = strictest !== undefined && value > strictest;
  if (!over) return { fill: SIZE_STATS.find((s) => s.key === stat)!.color, opacity: 1 };
  return { fill: "var(--over)", opacity: stat === "p50" ? 0.55 : stat === "p95" ? 0.8 : 1 };
}

export interface LegendSwatch {
  key: string;
  label: string;
  fill: string;
  opacity: number;
}

/**
 * The legend of the bars as drawn: one swatch per colour that appears, from `barStyle` itself, so the legend can
 * never show blue when every bar is red (the report's legend did, over Kinéis's 30 B).
 */
export function legendSwatches(data: readonly SizeDatum[], limits: readonly Limit[]): LegendSwatch[] {
  const strictest = limits[0]?.bytes;
  const drawn = data.filter((d) => !d.failed);
  const within: LegendSwatch[] = [];
  const over: LegendSwatch[] = [];
  for (const s of SIZE_STATS) {
    if (drawn.some((d) => strictest === undefined || d[s.key] <= strictest))
      within.push({ key: s.key, label: s.label, ...barStyle(0, s.key, strictest) });
    if (strictest !== undefined && drawn.some((d) => d[s.key] > strictest))
      over.push({
        key: `${s.key}-over`,
        label: `${s.label} over ${strictest} B`,
        ...barStyle(strictest + 1, s.key, strictest),
      });
  }
  return [...within, ...over];
}

const MARGIN = { top: 16, bottom: 22 };
const CATEGORY_GAP = 0.18;
const BAR_GAP = 1;

/** The width the box is laid out at, followed as the window or the panes are resized. */
function useWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

/** Rectangle with rounded top corners (2 px), as a path. */
function barPath(x: number, y: number, w: number, h: number): string {
  if (h <= 0 || w <= 0) return `M${x},${y}h0`;
  const r = Math.min(2, w / 2, h);
  return `M${x},${y + h}V${y + r}Q${x},${y} ${x + r},${y}H${x + w - r}Q${x + w},${y} ${x + w},${y + r}V${y + h}Z`;
}

function fits(d: SizeDatum, l: Limit): string {
  return d.max > l.bytes ? (d.p95 > l.bytes ? "does not fit" : "max over, p95 fits") : "fits";
}

export function SizeBars({ data, limits, height = 260 }: { data: SizeDatum[]; limits: Limit[]; height?: number }) {
  const [ref, width] = useWidth();
  const strictest = limits[0]?.bytes;
  const axis = niceAxis(Math.max(1, ...data.map((d) => d.max), ...limits.map((l) => l.bytes)));
  const left = axisLabelRoom(axis.ticks);
  const right = limits.length ? 46 : 12;
  const plotW = Math.max(0, width - left - right);
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const y = (v: number) => MARGIN.top + plotH * (1 - v / axis.max);
  const band = data.length ? plotW / data.length : 0;
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
                const style = barStyle(d[s.key], s.key, strictest);
                const top = y(d.failed ? 0 : d[s.key]);
                return (
                  <path
                    key={d.format}
                    className="size-bar"
                    data-format={d.format}
                    d={barPath(x0(i) + k * (barW + BAR_GAP), top, barW, MARGIN.top + plotH - top)}
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
          {data.map((d, i) => (
            <g key={d.format}>
              <text
                x={left + i * band + band / 2}
                y={MARGIN.top + plotH + 15}
                textAnchor="middle"
                fontSize={11}
                fill="var(--text-muted)"
              >
                {d.short}
              </text>
              {/* the hover text of the whole column */}
              <rect x={left + i * band} y={MARGIN.top} width={band} height={plotH} fill="transparent">
                <title>
                  {`${d.label}: p50 ${d.p50} B · p95 ${d.p95} B · max ${d.max} B · mean ${d.mean.toFixed(1)} B` +
                    limits.map((l) => `\n${l.name} ${l.bytes} B: ${fits(d, l)}`).join("") +
                    (d.stale ? "\n(updating: still the previous layout's figures)" : "")}
                </title>
              </rect>
            </g>
          ))}
          {limits.map((l) => (
            <g key={l.id}>
              <line
                x1={left}
                x2={left + plotW}
                y1={y(l.bytes)}
                y2={y(l.bytes)}
                stroke="var(--text-muted)"
                strokeDasharray="5 4"
              />
              <text x={left + plotW + 4} y={y(l.bytes)} dy="0.32em" fontSize={11} fill="var(--text-muted)">
                {l.bytes} B
              </text>
            </g>
          ))}
        </svg>
      )}
    </div>
  );
}
