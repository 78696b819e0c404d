// Run-to-run noise of a figure, estimated from the run's own per-second samples in its measured
// window: the mean's standard error (sd/√n). Two runs whose difference is within twice the combined
// error cannot be told apart; the compare view says so instead of crowning one. The intervals of a
// run are not independent (queues carry over), so this underestimates the noise: a difference it
// calls noise certainly is.
import type { TimelinePoint } from "#contracts/loadtest/result.ts";

export interface Estimate {
  mean: number;
  /** standard error of the mean */
  se: number;
  n: number;
}

/** z of the two-sided 95 % interval, rounded as people quote it */
const Z = 2;

export function estimate(points: readonly TimelinePoint[], key: "rps" | "p95"): Estimate | null {
  const xs = points
    .filter((p) => p.phase === "measure")
    .map((p) => p[key])
    .filter((x): x is number => x !== null && Number.isFinite(x));
  const n = xs.length;
  if (n < 2) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  return { mean, se: Math.sqrt(variance / n), n };
}

/** the difference a − b and the noise band it has to clear, both as plain numbers */
export function difference(a: Estimate, b: Estimate): { delta: number; noise: number; withinNoise: boolean } {
  const delta = a.mean - b.mean;
  const noise = Z * Math.hypot(a.se, b.se);
  return { delta, noise, withinNoise: Math.abs(delta) <= noise };
}

/**
 * For a row where `better` decides: whether the best run is distinguishable from the runner-up.
 * null when fewer than two runs have an estimate.
 */
export function bestWithinNoise(
  estimates: readonly (Estimate | null)[],
  better: "high" | "low",
): { best: number; next: number; delta: number; noise: number } | null {
  const ranked = estimates
    .map((e, i) => ({ e, i }))
    .filter((x): x is { e: Estimate; i: number } => x.e !== null)
    .sort((a, b) => (better === "high" ? b.e.mean - a.e.mean : a.e.mean - b.e.mean));
  if (ranked.length < 2) return null;
  const d = difference(ranked[0]!.e, ranked[1]!.e);
  return d.withinNoise ? { best: ranked[0]!.i, next: ranked[1]!.i, delta: Math.abs(d.delta), noise: d.noise } : null;
}
