// Timestamps with a resolution travel as integer ticks (value / resolution). Decimal resolutions
// (0.1 s, 0.001 s) divide by an exact power of ten on the way back, so 1748778312.3 stays the double
// nearest the decimal in every format, the sample generator and the generated C.

/** Decimal places when the resolution is a power of ten below one (0.1 → 1), else 0. */
export function resolutionDecimals(resolution: number): number {
  const d = Math.round(-Math.log10(resolution));
  return d > 0 && Math.abs(10 ** -d - resolution) < 1e-12 ? d : 0;
}

export function secondsToTicks(seconds: number, resolution: number): number {
  const d = resolutionDecimals(resolution);
  return d > 0 ? Math.round(seconds * 10 ** d) : Math.round(seconds / resolution);
}

export function ticksToSeconds(ticks: number, resolution: number): number {
  const d = resolutionDecimals(resolution);
  return d > 0 ? ticks / 10 ** d : ticks * resolution;
}

/** Rounds to the resolution without binary drift (1748778312.3, not …312.3000002). */
export function quantiseTime(seconds: number, resolution: number): number {
  return ticksToSeconds(secondsToTicks(seconds, resolution), resolution);
}
