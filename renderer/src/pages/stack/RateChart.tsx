// Records per second over the last minutes (and what left for the CSE), one point per stats tick.
import { Area, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { fmt } from "./format.ts";
import type { RatePoint } from "./stackStore.ts";

const AXIS = { fill: "var(--text-muted)", fontSize: 11 };

export function RateChart({ points }: { points: RatePoint[] }) {
  return (
    <section
      className="card stack-card"
      data-testid="stack-rate"
      aria-label="Records per second"
      data-points={points.length}
      data-peak={Math.max(0, ...points.map((p) => p.rps))}
      data-forwarded-peak={Math.max(0, ...points.map((p) => p.fps))}
    >
      <header className="stack-card-head">
        <h2 className="section-title">Records per second</h2>
        <span className="spacer" />
        <span className="faint stack-small">
          {points.length
            ? `last ${Math.round((points.at(-1)!.t - points[0]!.t) / 1000)} s`
            : "waiting for the first tick"}
        </span>
      </header>
      <div className="stack-chart">
        {points.length < 2 ? (
          <p className="empty">The chart fills in once a second while the stack runs.</p>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart
              data={points.map((p) => ({ ...p, s: p.t / 1000 }))}
              margin={{ top: 8, right: 12, bottom: 0, left: -8 }}
            >
              <CartesianGrid stroke="var(--border)" strokeDasharray="2 3" />
              {/* whole seconds only: ticks between two stats ticks would repeat a clock time */}
              <XAxis
                dataKey="s"
                type="number"
                domain={["dataMin", "dataMax"]}
                allowDecimals={false}
                tick={AXIS}
                tickFormatter={(s: number) => fmt.time(s * 1000)}
                minTickGap={48}
              />
              <YAxis tick={AXIS} width={48} allowDecimals={false} />
              <Tooltip
                labelFormatter={(s) => fmt.time(Number(s) * 1000)}
                formatter={(v, name) => [fmt.rate(Number(v)), name === "rps" ? "ingested / s" : "forwarded / s"]}
              />
              <Legend
                formatter={(v) => (v === "rps" ? "ingested" : "forwarded to the CSE")}
                wrapperStyle={{ fontSize: 11 }}
              />
              {/* drawn at once: new points come every second */}
              <Area
                dataKey="rps"
                stroke="var(--accent)"
                fill="var(--accent-weak)"
                strokeWidth={1.5}
                isAnimationActive={false}
              />
              <Line
                dataKey="fps"
                stroke="var(--fits)"
                strokeWidth={2}
                dot={false}
                strokeDasharray="5 4"
                isAnimationActive={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        )}
      </div>
    </section>
  );
}
