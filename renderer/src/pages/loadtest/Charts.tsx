// Throughput, p95 and failures over a run's time, one small chart each (live while a run goes on).
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { TimelinePoint } from "#contracts/loadtest/result.ts";
import { axisTick, axisWidth } from "./axis.ts";

const AXIS = { fill: "var(--text-muted)", fontSize: 11 };
const GRID = "var(--border)";

/** the measured window, shaded so ramp-up and warm-up read as such */
function measuredSpan(points: TimelinePoint[]): [number, number] | null {
  const m = points.filter((p) => p.phase === "measure");
  return m.length ? [m[0]!.t, m.at(-1)!.t] : null;
}

function Frame({ title, testId, children }: { title: string; testId: string; children: React.ReactElement }) {
  return (
    <figure className="lt-chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div style={{ width: "100%", height: 120 }}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

const peak = (points: TimelinePoint[], key: "rps" | "p95" | "failures") =>
  Math.max(0, ...points.map((p) => p[key] ?? 0));

export function RunCharts({ points }: { points: TimelinePoint[] }) {
  const span = measuredSpan(points);
  const y = (key: "rps" | "p95" | "failures", allowDecimals: boolean) => (
    <YAxis tick={AXIS} width={axisWidth(peak(points, key))} allowDecimals={allowDecimals} tickFormatter={axisTick} />
  );
  const shade = span ? (
    <ReferenceArea x1={span[0]} x2={span[1]} fill="var(--accent-weak)" fillOpacity={0.5} ifOverflow="extendDomain" />
  ) : null;
  const x = (
    <XAxis
      dataKey="t"
      type="number"
      domain={["dataMin", "dataMax"]}
      allowDecimals={false}
      tick={AXIS}
      tickFormatter={(t: number) => `${t}s`}
    />
  );
  return (
    <div className="lt-charts" data-points={points.length}>
      {/* drawn at once (no animation): live updates come every second */}
      <Frame title="Requests / s" testId="lt-chart-rps">
        <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={GRID} strokeDasharray="2 3" />
          {shade}
          {x}
          {y("rps", false)}
          <Tooltip formatter={(v) => [`${Number(v).toFixed(1)}`, "RPS"]} labelFormatter={(t) => `t = ${t} s`} />
          <Line dataKey="rps" stroke="var(--accent)" strokeWidth={2} dot={false} isAnimationActive={false} />
        </LineChart>
      </Frame>
      <Frame title="p95 latency (ms)" testId="lt-chart-p95">
        <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={GRID} strokeDasharray="2 3" />
          {shade}
          {x}
          {y("p95", true)}
          <Tooltip
            formatter={(v) => [v === null ? "–" : `${Number(v).toFixed(1)} ms`, "p95"]}
            labelFormatter={(t) => `t = ${t} s`}
          />
          <Line
            dataKey="p95"
            stroke="var(--bar-max)"
            strokeWidth={2}
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
        </LineChart>
      </Frame>
      <Frame title="Failures / interval" testId="lt-chart-failures">
        <BarChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={GRID} strokeDasharray="2 3" />
          {shade}
          {x}
          {y("failures", false)}
          <Tooltip formatter={(v) => [String(v), "failed"]} labelFormatter={(t) => `t = ${t} s`} />
          {/* red only because these are failures */}
          <Bar dataKey="failures" fill="var(--over)" isAnimationActive={false} />
        </BarChart>
      </Frame>
    </div>
  );
}
