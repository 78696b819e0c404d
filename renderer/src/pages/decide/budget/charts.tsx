// The Budget view's charts: battery life per platform and format, and one platform's energy per reading split into
// radio, sensors and sleep. A fixed `width` renders without measuring (the report needs that).
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { CODECS, type FormatId } from "#codecs";
import { energyText, lifeText, type BudgetRow } from "./budgetModel.ts";
import { AXIS, formatColor, Frame } from "../cost/charts.tsx";

const TOOLTIP_STYLE = { background: "var(--surface)", border: "1px solid var(--border)", fontSize: 12 };

/**
 * The platform as a column or axis label (the full name is the column's hover text): "DR3" for a LoRaWAN data rate
 * (the region is in the heading), "NB-IoT" and "NB-IoT NTN" for the cellular ones, else the name without its
 * bracket ("Astrocast").
 */
export function platformShort(id: string, name: string): string {
  const dr = /^lorawan-[a-z0-9]+-(dr\d+)$/.exec(id);
  if (dr) return dr[1]!.toUpperCase();
  if (id === "nbiot-tn") return "NB-IoT";
  if (id === "nbiot-ntn") return "NB-IoT NTN";
  return name.replace(/\s*\(.*\)$/, "");
}

/** Axis ticks in years, or months / days when the lives are short (a reading a minute): "4 y", "6 mo", "12 d". */
function yearsTick(v: number): string {
  if (v === 0 || v >= 1) return `${v} y`;
  if (v * 12 >= 1) return `${Number((v * 12).toFixed(1))} mo`;
  return `${Number((v * 365.25).toFixed(1))} d`;
}

const formatsOf = (rows: readonly BudgetRow[]) => [...new Map(rows.map((r) => [r.format, r.formatLabel])).keys()];

/** Battery life in years: one group per platform, one bar per format (a message over the limit has no bar). */
export function BatteryLifeChart({
  rows,
  width,
  height = 240,
}: {
  rows: readonly BudgetRow[];
  width?: number;
  height?: number;
}) {
  const formats = formatsOf(rows);
  const platforms = [...new Map(rows.map((r) => [r.platformId, r.platformName])).entries()];
  const data = platforms.map(([id, name]) => ({
    platform: platformShort(id, name),
    ...Object.fromEntries(
      formats.map((f) => [
        f,
        rows.find((r) => r.platformId === id && r.format === f)?.budget?.batteryLifeYears ?? null,
      ]),
    ),
  }));
  return (
    <Frame width={width} height={height}>
      <BarChart width={width} height={height} data={data} margin={{ top: 8, right: 8, bottom: 4, left: 4 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis
          dataKey="platform"
          tick={AXIS}
          tickLine={false}
          axisLine={{ stroke: "var(--border-strong)" }}
          interval={0}
        />
        <YAxis tick={AXIS} tickLine={false} axisLine={false} width={44} tickFormatter={yearsTick} />
        <Tooltip
          cursor={{ fill: "var(--surface-2)" }}
          formatter={(v) => lifeText(Number(v))}
          contentStyle={TOOLTIP_STYLE}
        />
        <Legend wrapperStyle={{ fontSize: 11 }} />
        {formats.map((f: FormatId) => (
          <Bar key={f} dataKey={f} name={CODECS[f].info.short} fill={formatColor(f)} isAnimationActive={false} />
        ))}
      </BarChart>
    </Frame>
  );
}

const PARTS = [
  { key: "radio", label: "Radio", color: "var(--series-1)" },
  { key: "sensors", label: "Sensors, GNSS, MCU", color: "var(--series-4)" },
  { key: "sleep", label: "Sleep", color: "var(--series-7)" },
] as const;

/** One platform's energy per reading per format, stacked: what the radio costs against what the device costs anyway. */
export function EnergyPerReadingChart({
  rows,
  width,
  height = 220,
}: {
  rows: readonly BudgetRow[];
  width?: number;
  height?: number;
}) {
  const data = rows
    .filter((r) => r.budget)
    .map((r) => ({
      format: CODECS[r.format].info.short,
      // millijoules: the axis reads 0–200 rather than 0.0002
      ...Object.fromEntries(PARTS.map((p) => [p.key, r.budget!.energyPerReadingJ[p.key] * 1e3])),
    }));
  return (
    <Frame width={width} height={height}>
      <BarChart width={width} height={height} data={data} margin={{ top: 8, right: 8, bottom: 4, left: 4 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis
          dataKey="format"
          tick={AXIS}
          tickLine={false}
          axisLine={{ stroke: "var(--border-strong)" }}
          interval={0}
        />
        <YAxis tick={AXIS} tickLine={false} axisLine={false} width={52} tickFormatter={(v: number) => `${v} mJ`} />
        <Tooltip
          cursor={{ fill: "var(--surface-2)" }}
          formatter={(v) => energyText(Number(v) / 1e3)}
          contentStyle={TOOLTIP_STYLE}
        />
        <Legend wrapperStyle={{ fontSize: 11 }} />
        {PARTS.map((p) => (
          <Bar key={p.key} dataKey={p.key} name={p.label} stackId="e" fill={p.color} isAnimationActive={false} />
        ))}
      </BarChart>
    </Frame>
  );
}
