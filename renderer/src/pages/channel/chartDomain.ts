// Value axes of the Channel charts with room above the highest point. With recharts' "auto" top the highest
// line ran along the plot's upper edge and its stroke was cut; the log axis with allowDataOverflow cut whole lines.

/**
 * A linear axis from 0 with round ticks (1, 2, 2.5, 5 × 10^k apart, four to six of them) whose top is at least 8 %
 * above the largest (finite) value. Recharts' own ticks for such a top were 0, 7, 14, 21, 25.
 */
export function linearAxis(values: readonly number[]): { top: number; ticks: number[] } {
  const max = Math.max(0, ...values.filter(Number.isFinite));
  const target = max > 0 ? max * 1.08 : 1;
  const raw = target / 5;
  const base = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * base).find((c) => c >= raw)!;
  const n = Math.ceil(target / step - 1e-9);
  // whole multiples of the step, rounded so 0.1 × 3 prints as 0.3
  const ticks = Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  return { top: ticks[n]!, ticks };
}

/** A log axis spanning whole powers of ten around the positive values, widened when a value sits on an edge. */
export function logDomain(values: readonly number[]): [number, number] {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  if (!positive.length) return [0.1, 10];
  const lo = Math.min(...positive);
  const hi = Math.max(...positive);
  let from = 10 ** Math.floor(Math.log10(lo));
  let to = 10 ** Math.ceil(Math.log10(hi));
  // a point exactly on a power of ten would sit on the edge: one more decade of room
  if (to <= hi * 1.05) to *= 10;
  if (from >= lo / 1.05) from /= 10;
  return [from, to];
}
