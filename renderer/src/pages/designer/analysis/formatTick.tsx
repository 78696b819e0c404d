// The format names under a bar chart of formats: every other name a line lower when they do not fit side by
// side ("MsgPackProtobuf" was), as labelRows decides from the chart's width.
import { CartesianGrid, XAxis, YAxis, type XAxisTickContentProps } from "recharts";

export function formatTick(rows: 1 | 2) {
  return function FormatTick(t: XAxisTickContentProps) {
    return (
      <text
        x={t.x}
        y={t.y}
        dy={rows === 2 && t.index % 2 === 1 ? 24 : 11}
        textAnchor="middle"
        fontSize={11}
        fill="var(--text-muted)"
        className="onair-tick"
      >
        {String(t.payload.value)}
      </text>
    );
  };
}

/**
 * The grid and axes of a bar chart of formats in bytes (Bytes on air and the stack comparison): the format
 * names under the bars, on one or two rows, and a byte axis. Recharts 3 reads axes through its context,
 * so they may come from a fragment.
 */
export function formatBarAxes(rows: 1 | 2) {
  return (
    <>
      <CartesianGrid vertical={false} stroke="var(--border)" />
      <XAxis
        dataKey="short"
        tick={formatTick(rows)}
        height={rows === 2 ? 38 : 24}
        tickLine={false}
        axisLine={{ stroke: "var(--border-strong)" }}
        interval={0}
      />
      <YAxis
        tick={{ fill: "var(--text-muted)", fontSize: 11 }}
        tickLine={false}
        axisLine={false}
        width={48}
        unit=" B"
      />
    </>
  );
}
