// Y-axis labels of the run charts: short enough to fit their gutter (12 500 requests/s reads "12.5k",
// never a clipped "2500"), and a gutter wide enough for the longest label the data can produce.

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

export function axisTick(v: number): string {
  return Math.abs(v) < 1000 ? String(Math.round(v * 10) / 10) : compact.format(v).toLowerCase();
}

/** px per character of the 11 px axis font, with room for the tick mark */
const CHAR_PX = 7;
const PAD_PX = 10;

/** gutter width for labels up to `max` (recharts draws ticks up to a rounded-up domain: one digit spare) */
export function axisWidth(max: number): number {
  const longest = Math.max(axisTick(max).length, axisTick(max * 1.25).length, 2);
  return longest * CHAR_PX + PAD_PX;
}
