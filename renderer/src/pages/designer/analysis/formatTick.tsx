// The format names under a bar chart of formats: names staggered over two or three lines when they do not fit
// side by side ("MsgPackProtobuf" was), as labelRows decides from the chart's width.
import type { XAxisTickContentProps } from "recharts";
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
