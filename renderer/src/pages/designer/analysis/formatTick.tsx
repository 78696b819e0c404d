// The format names under a bar chart of formats: names staggered over two or three lines when they do not fit
// side by side ("MsgPackProtobuf" was), as labelRows decides from the chart's width.
import { CartesianGrid, XAxis, YAxis, type XAxisTickContentProps } from "recharts";
import { labelRow, type LabelRows } from "../../../ui/sizes/axis.ts";

/** The axis height the names need on `rows` lines. */
export const tickHeight = (rows: LabelRows): number => 24 + 14 * (rows - 1);

export function formatTick(rows: LabelRows) {
  return function FormatTick(t: XAxisTickContentProps) {
    return (
      <text
        x={t.x}
        y={t.y}
        dy={11 + 13 * labelRow(t.index, rows)}
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
 * names under the bars, on as many rows as labelRows chose, and a byte axis. Recharts 3 reads axes through its context,
 * so they may come from a fragment.
 */
export function formatBarAxes(rows: LabelRows) {
  return (
    <>
      <CartesianGrid vertical={false} stroke="var(--border)" />
      <XAxis
        dataKey="short"
        tick={formatTick(rows)}
        height={tickHeight(rows)}
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
