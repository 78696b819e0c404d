// Size statistics the designer, CLI and reports show: min/mean/max and nearest-rank percentiles.

export interface SizeStats {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * Nearest-rank percentiles: the p-th percentile of n sorted values is the value at rank
 * ceil(p/100 · n) (1-based), so every reported percentile is a size that actually occurred.
 * An empty input gives count 0 and zeros everywhere (nothing was measured).
 */
export function summarize(sizes: ArrayLike<number>): SizeStats {
  const n = sizes.length;
  if (n === 0) return { count: 0, min: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  const sorted = Float64Array.from(sizes).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  const rank = (p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * n) - 1)]!;
  return { count: n, min: sorted[0]!, mean: sum / n, p50: rank(50), p95: rank(95), p99: rank(99), max: sorted[n - 1]! };
}

/** Fraction of samples strictly larger than `limit` (a message of exactly the limit still fits); 0 for no samples. */
export function shareOver(sizes: ArrayLike<number>, limit: number): number {
  const n = sizes.length;
  if (n === 0) return 0;
  let over = 0;
  for (let i = 0; i < n; i++) if (sizes[i]! > limit) over++;
  return over / n;
}
