// The Channel page's charts: completion time against offered load per stack, and seed 003's
// goodput and completion time per NSTART (requests in flight at once) beside the paper's.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { FleetResult, Seed003Row } from "#planning/channel";
import { linearAxis, logDomain } from "./chartDomain.ts";

const AXIS = { fill: "var(--text-muted)", fontSize: 11 };
const GRID = "var(--border)";
/** A seed 003 row in plain words: CoAP's NSTART is how many requests a device keeps in flight at once. */
export const seriesName = (nstart: number | null): string => (nstart === null ? "MQTT" : `CoAP, ${nstart} in flight`);

// recharts sorts legend items by name unless told not to: keep the order of the lines as configured
const LEGEND = { wrapperStyle: { fontSize: 12 }, itemSorter: null } as const;
// distinct hues in both themes: the stacks are told apart by colour first
const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#d97706", "#0891b2", "#db2777", "#64748b"];

function Frame({
  title,
  testId,
  height = 220,
  children,
}: {
  title: string;
  testId: string;
  height?: number;
  children: React.ReactElement;
}) {
  return (
    <figure className="ch-chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div style={{ width: "100%", height }}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** p95 completion time (s) against measured offered load G, one line per stack. */
export function CompletionVsLoad({ stacks }: { stacks: FleetResult[] }) {
  const y = linearAxis(
    stacks.flatMap((s) => s.points.filter((p) => p.completion.count > 0).map((p) => p.completion.p95)),
  );
  return (
    <Frame title="Completion time p95 (s) against normalized offered load G (packets per slot)" testId="ch-chart-load">
      <LineChart margin={{ top: 6, right: 12, bottom: 4, left: -4 }}>
        <CartesianGrid stroke={GRID} strokeDasharray="2 3" />
        <XAxis
          dataKey="g"
          type="number"
          domain={[0, "dataMax"]}
          tick={AXIS}
          tickFormatter={(g: number) => g.toFixed(2)}
        />
        <YAxis tick={AXIS} width={48} domain={[0, y.top]} ticks={y.ticks} />
        <Tooltip
          formatter={(v, name) => [`${Number(v).toFixed(2)} s`, String(name)]}
          labelFormatter={(g) => `G = ${Number(g).toFixed(3)}`}
        />
        <Legend {...LEGEND} />
        {stacks.map((s, i) => (
          <Line
            key={s.stack}
            name={s.stack}
            data={s.points
              .filter((p) => p.completion.count > 0)
              .map((p) => ({ g: p.offeredLoad.mean, p95: p.completion.p95 }))}
            dataKey="p95"
            stroke={COLORS[i % COLORS.length]}
            strokeWidth={2}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </Frame>
  );
}

export function GoodputPerNstart({ rows }: { rows: Seed003Row[] }) {
  const data = rows.map((r) => ({
    // the axis names only the number: "CoAP, 10 in flight" under every bar left room for every other one
    name: r.nstart === null ? "MQTT" : String(r.nstart),
    simulated: Number(r.goodputKBps.toFixed(2)),
    paper: r.paperGoodputKBps,
  }));
  const y = linearAxis(data.flatMap((d) => [d.simulated, d.paper]));
  return (
    <Frame
      title="Aggregated goodput (KB/s) per CoAP requests in flight, and MQTT: simulated vs seed 003 Table II"
      testId="ch-chart-goodput"
    >
      <BarChart data={data} margin={{ top: 6, right: 12, bottom: 4, left: -4 }}>
        <CartesianGrid stroke={GRID} strokeDasharray="2 3" />
        <XAxis dataKey="name" tick={AXIS} interval={0} />
        <YAxis tick={AXIS} width={44} domain={[0, y.top]} ticks={y.ticks} />
        <Tooltip
          formatter={(v, name) => [`${Number(v).toFixed(2)} KB/s`, String(name)]}
          labelFormatter={(n) => (n === "MQTT" ? "MQTT" : `CoAP, ${String(n)} in flight`)}
        />
        <Legend {...LEGEND} />
        <Bar dataKey="simulated" fill="var(--accent)" isAnimationActive={false} />
        <Bar dataKey="paper" fill="var(--text-muted)" isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

/** Fig. 4: median completion time per packets-per-exchange band, one line per stack. */
export function CompletionPerNstart({ rows }: { rows: Seed003Row[] }) {
  const bands = rows[0]?.fig4 ?? [];
  const data = bands.map((b, i) => {
    const point: Record<string, number | string | null> = { band: `${b.from}–${b.to - 1}` };
    for (const r of rows) {
      const x = r.fig4[i]!;
      point[seriesName(r.nstart)] = x.count > 0 ? Number(x.p50.toFixed(2)) : null;
    }
    return point;
  });
  const domain = logDomain(rows.flatMap((r) => r.fig4.filter((x) => x.count > 0).map((x) => x.p50)));
  return (
    <Frame
      title="Median completion time (s) per packets per exchange (seed 003 Fig. 4)"
      testId="ch-chart-nstart"
      height={260}
    >
      <LineChart data={data} margin={{ top: 6, right: 12, bottom: 4, left: -4 }}>
        <CartesianGrid stroke={GRID} strokeDasharray="2 3" />
        <XAxis dataKey="band" tick={AXIS} />
        <YAxis tick={AXIS} width={48} scale="log" domain={domain} />
        <Tooltip
          formatter={(v, name) => [v === null ? "–" : `${Number(v).toFixed(1)} s`, String(name)]}
          labelFormatter={(b) => `${b} packets`}
        />
        <Legend {...LEGEND} />
        {rows.map((r, i) => {
          const key = seriesName(r.nstart);
          return (
            <Line
              key={key}
              dataKey={key}
              stroke={COLORS[i % COLORS.length]}
              strokeWidth={r.nstart === null ? 3 : 2}
              strokeDasharray={r.nstart === null ? "5 3" : undefined}
              connectNulls
              isAnimationActive={false}
            />
          );
        })}
      </LineChart>
    </Frame>
  );
}
