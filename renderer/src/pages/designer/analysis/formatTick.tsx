// The format names under a bar chart of formats: every other name a line lower when they do not fit side by
// side ("MsgPackProtobuf" was), as labelRows decides from the chart's width.
import type { XAxisTickContentProps } from "recharts";

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
