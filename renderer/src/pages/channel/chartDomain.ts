// Value axes of the Channel charts with room above the highest point. With recharts' "auto" top the highest
// line ran along the plot's upper edge and its stroke was cut; the log axis with allowDataOverflow cut whole lines.

/** A linear axis from 0 to a round value at least 8 % above the largest (finite) value. */
export function linearTop(values: readonly number[]): number {
  const max = Math.max(0, ...values.filter(Number.isFinite));
  if (max === 0) return 1;
  const target = max * 1.08;
  const base = 10 ** Math.floor(Math.log10(target));
  return [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map((m) => m * base).find((c) => c >= target) ?? 10 * base;
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
