// The paper's Figure of Merit: one dimensionless number that rewards throughput and reliability and penalises tail latency.

export interface FomInputs {
  /** sustained requests per second */
  rps: number;
  /** successful share of requests, 0..1 */
  successRate: number;
  /** 95th-percentile latency in seconds */
  p95Seconds: number;
  /** the paper's reference latency; squared so the result has no unit */
  referenceSeconds?: number;
}

/** FoM = RPS × success rate × (reference latency)² / p95 latency (Kumar et al. 2026, Section 4.5.3). */
export function figureOfMerit({ rps, successRate, p95Seconds, referenceSeconds = 1 }: FomInputs): number {
  if (!(p95Seconds > 0)) throw new RangeError(`p95 latency must be > 0 s, got ${p95Seconds}`);
  if (!(successRate >= 0 && successRate <= 1))
    throw new RangeError(`success rate must be within 0..1, got ${successRate}`);
  if (!(rps >= 0)) throw new RangeError(`RPS must be ≥ 0, got ${rps}`);
  return (rps * successRate * referenceSeconds * referenceSeconds) / p95Seconds;
}

/**
 * The FoM range that inputs published with rounding could have produced: each input may lie half
 * a step either side of the printed value (RPS to 1, p95 to 1 ms, success to 1 %).
 */
export function fomRange(
  printed: FomInputs,
  halfStep: { rps: number; successRate: number; p95Seconds: number },
): [number, number] {
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const lo = figureOfMerit({
    ...printed,
    rps: printed.rps - halfStep.rps,
    successRate: clamp(printed.successRate - halfStep.successRate),
    p95Seconds: printed.p95Seconds + halfStep.p95Seconds,
  });
  const hi = figureOfMerit({
    ...printed,
    rps: printed.rps + halfStep.rps,
    successRate: clamp(printed.successRate + halfStep.successRate),
    p95Seconds: printed.p95Seconds - halfStep.p95Seconds,
  });
  return [lo, hi];
}

export interface PaperFomRow {
  format: "struct-zlib" | "protobuf";
  devices: number;
  instances: number;
  rps: number;
  p95Seconds: number;
  successRate: number;
  /** the FoM column of Table 6 (whole numbers) */
  fom: number;
}

/** Table 6 of the paper as printed (RPS and p95 rounded there; the FoM column was computed before rounding). */
export const PAPER_TABLE6: readonly PaperFomRow[] = [
  { format: "struct-zlib", devices: 500, instances: 1, rps: 239, p95Seconds: 0.125, successRate: 1, fom: 1914 },
  { format: "struct-zlib", devices: 1000, instances: 1, rps: 418, p95Seconds: 2.1, successRate: 1, fom: 199 },
  { format: "struct-zlib", devices: 2000, instances: 1, rps: 496, p95Seconds: 8.9, successRate: 0.98, fom: 54 },
  { format: "protobuf", devices: 500, instances: 1, rps: 239, p95Seconds: 0.125, successRate: 1, fom: 1914 },
  { format: "protobuf", devices: 1000, instances: 1, rps: 425, p95Seconds: 1.967, successRate: 1, fom: 216 },
  { format: "protobuf", devices: 2000, instances: 1, rps: 492, p95Seconds: 9.867, successRate: 0.97, fom: 49 },
  { format: "struct-zlib", devices: 1000, instances: 2, rps: 478, p95Seconds: 0.15, successRate: 1, fom: 3188 },
  { format: "struct-zlib", devices: 2000, instances: 4, rps: 712, p95Seconds: 1.124, successRate: 1, fom: 633 },
  { format: "protobuf", devices: 1000, instances: 2, rps: 478, p95Seconds: 0.127, successRate: 1, fom: 3762 },
  { format: "protobuf", devices: 2000, instances: 4, rps: 712, p95Seconds: 1.096, successRate: 1, fom: 650 },
];

/** Half a printed step of each Table 6 input. */
export const PAPER_TABLE6_HALF_STEP = { rps: 0.5, successRate: 0.005, p95Seconds: 0.0005 } as const;
