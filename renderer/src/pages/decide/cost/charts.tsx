// The fleet-cost charts, shared by the cost page and the report: monthly cost, savings versus JSON, and cost over
// fleet size and reporting interval. A fixed `width` renders without measuring (print and PNG export need that).
import { useRef, type ReactElement } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { CODECS, FORMAT_IDS, type FormatId } from "#codecs";
import type { Currency, FleetResult, SeriesPoint } from "#planning";
import { useWidth } from "../../../ui/sizes/useWidth.ts";
import { categoryTicks } from "../../../ui/tickLayout.ts";
import { money, moneyShort } from "../money.ts";
import { useMountInTurn } from "../mountInTurn.ts";

/** One colour per position, themed in decide.css; never red, which means "over the limit". */
export const SERIES_COLORS = [
  "var(--series-1)",
  "var(--series-2)",
  "var(--series-3)",
  "var(--series-4)",
  "var(--series-5)",
  "var(--series-6)",
  "var(--series-7)",
  "var(--series-8)",
  "var(--series-9)",
];

export const AXIS = { fill: "var(--text-muted)", fontSize: 11 };
const BAR_MARGIN = { top: 18, right: 8, bottom: 4, left: 4 };
const MONEY_AXIS_WIDTH = 52;

/** A chart's box: its size at once, the chart drawn in its turn; a fixed `width` renders without measuring. */
export function Frame({
  width,
  height,
  children,
}: {
  width?: number | undefined;
  height: number;
  children: ReactElement;
}) {
  // the box has its size at once; the chart in it is drawn in its turn (one per frame, useMountInTurn)
  const waiting = useRef<HTMLDivElement>(null);
  const ready = useMountInTurn(waiting);
  if (!ready)
    return (
      <div
        ref={waiting}
        className="chart-waiting"
        style={{ width: width ?? "100%", height }}
        data-chart-waiting="true"
      />
    );
  if (width !== undefined) return <div style={{ width, height }}>{children}</div>;
  return (
    <div style={{ width: "100%", height }}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/** The same colour for a format on every chart. */
export function formatColor(f: FormatId): string {
  return SERIES_COLORS[Math.max(0, FORMAT_IDS.indexOf(f)) % SERIES_COLORS.length]!;
}

interface ChartProps {
  result: FleetResult;
  platformId: string;
  width?: number;
  height?: number;
}

/** One bar per format in its colour, the value on top; `axis` writes ticks and bar labels, `tip` the hover text. */
export function FormatBars({
  data,
  axis,
  tip,
  width,
  height,
}: {
  data: { format: FormatId; label: string; value: number | null }[];
  axis: (v: number) => string;
  tip: (v: number) => string;
  width?: number | undefined;
  height: number;
}) {
  // the room per label, from the fixed width (the report, a PNG) or the box's measured one (the cost page, which
  // at 1024 px ran "JSONProtobufStructStruct+Zlib" together): too narrow, the labels turn instead of colliding
  const [box, measured] = useWidth();
  const room = width ?? measured;
  const ticks =
    room > 0
      ? categoryTicks(
          data.map((d) => d.label),
          room - MONEY_AXIS_WIDTH - BAR_MARGIN.left - BAR_MARGIN.right,
          AXIS.fontSize,
        )
      : null;
  return (
    <div ref={box}>
      <Frame width={width} height={height}>
        <BarChart width={width} height={height} data={data} margin={BAR_MARGIN} barCategoryGap="22%">
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis
            dataKey="label"
            tick={AXIS}
            tickLine={false}
            axisLine={{ stroke: "var(--border-strong)" }}
            interval={0}
            {...(ticks && ticks.angle !== 0 ? { angle: ticks.angle, textAnchor: "end", height: ticks.height } : {})}
          />
          <YAxis tick={AXIS} tickLine={false} axisLine={false} width={MONEY_AXIS_WIDTH} tickFormatter={axis} />
          <Tooltip
            cursor={{ fill: "var(--surface-2)" }}
            formatter={(v) => tip(Number(v))}
            contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", fontSize: 12 }}
          />
          <Bar dataKey="value" isAnimationActive={false} radius={[2, 2, 0, 0]}>
            {data.map((d) => (
              <Cell key={d.format} fill={formatColor(d.format)} />
            ))}
            <LabelList
              dataKey="value"
              position="top"
              style={{ fill: "var(--text-muted)", fontSize: 10 }}
              formatter={(v: unknown) => (typeof v === "number" ? axis(v) : "")}
            />
          </Bar>
        </BarChart>
      </Frame>
    </div>
  );
}

function MoneyBars({
  currency,
  ...rest
}: {
  data: { format: FormatId; label: string; value: number | null }[];
  currency: Currency;
  width?: number | undefined;
  height: number;
}) {
  return <FormatBars {...rest} axis={(v) => moneyShort(v, currency)} tip={(v) => money(v, currency)} />;
}

/** The format's short name, as the designer's size chart writes it ("Protobuf", "MsgPack"). */
const label = (f: FormatId) => CODECS[f].info.short;

/** One platform's monthly cost (every message priced) per format. */
export function MonthlyCostChart({ result, platformId, width, height = 200 }: ChartProps) {
  const data = result.cells
    .filter((c) => c.platformId === platformId)
    .map((c) => ({ format: c.format, label: label(c.format), value: c.monthly.exact ?? null }));
  return <MoneyBars data={data} currency={result.currency} width={width} height={height} />;
}

/** One platform's monthly saving versus JSON per format. */
export function SavingsChart({ result, platformId, width, height = 200 }: ChartProps) {
  const data = result.cells
    .filter((c) => c.platformId === platformId && c.format !== "json")
    .map((c) => ({ format: c.format, label: label(c.format), value: c.savingVsJson }));
  return <MoneyBars data={data} currency={result.currency} width={width} height={height} />;
}

/** Platforms whose cost is known: the small multiples, one chart each (their prices differ by orders of magnitude). */
export function pricedPlatforms(result: FleetResult): [string, string][] {
  return [
    ...new Map(
      result.cells.filter((c) => c.monthly.exact !== undefined).map((c) => [c.platformId, c.platformName]),
    ).entries(),
  ];
}

interface SeriesProps {
  points: SeriesPoint[];
  labels: Partial<Record<FormatId, string>>;
  currency: Currency;
  xLabel: (x: number) => string;
  width?: number;
  height?: number;
}

/** Monthly cost per format over fleet size or reporting interval (log x axis: the points span two decades). */
export function SensitivityChart({ points, labels, currency, xLabel, width, height = 220 }: SeriesProps) {
  const formats = Object.keys(labels) as FormatId[];
  const data = points.map((p) => ({ x: p.x, ...Object.fromEntries(formats.map((f) => [f, p.values[f] ?? null])) }));
  const xs = points.map((p) => p.x);
  return (
    <Frame width={width} height={height}>
      <LineChart width={width} height={height} data={data} margin={{ top: 8, right: 12, bottom: 4, left: 8 }}>
        <CartesianGrid stroke="var(--border)" />
        <XAxis
          dataKey="x"
          type="number"
          scale="log"
          domain={[Math.min(...xs), Math.max(...xs)]}
          ticks={xs}
          tickFormatter={xLabel}
          tick={AXIS}
          tickLine={false}
          axisLine={{ stroke: "var(--border-strong)" }}
          allowDataOverflow
        />
        <YAxis
          scale="log"
          domain={["auto", "auto"]}
          tick={AXIS}
          tickLine={false}
          axisLine={false}
          width={56}
          tickFormatter={(v: number) => moneyShort(v, currency)}
          allowDataOverflow
        />
        <Tooltip
          formatter={(v) => money(Number(v), currency)}
          labelFormatter={(x) => xLabel(Number(x))}
          contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", fontSize: 12 }}
        />
        <Legend wrapperStyle={{ fontSize: 11 }} itemSorter={null} />
        {formats.map((f) => (
          <Line
            key={f}
            dataKey={f}
            name={labels[f]}
            stroke={formatColor(f)}
            strokeWidth={2}
            dot={{ r: 2 }}
            isAnimationActive={false}
            connectNulls
          />
        ))}
      </LineChart>
    </Frame>
  );
}

export const fleetLabel = (x: number) => (x >= 1000 ? `${x / 1000}k` : String(x));
export const intervalLabel = (m: number) => (m >= 60 ? `${m / 60} h` : `${m} min`);
