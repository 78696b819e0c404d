// The size axis of the bar chart.

/** Round ticks (1, 2, 2.5, 5 × 10^k bytes) with a little headroom, so the tallest bar or limit line is never clipped. */
export function niceAxis(top: number): { max: number; ticks: number[] } {
  const raw = (top * 1.04) / 5;
  const base = 10 ** Math.floor(Math.log10(raw));
  // bytes are whole numbers: never a step below 1
  const step = [1, 2, 2.5, 5, 10].map((m) => m * base).find((c) => c >= raw && Number.isInteger(c)) ?? 1;
  const max = Math.ceil((top * 1.04) / step) * step;
  return { max, ticks: Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step) };
}
