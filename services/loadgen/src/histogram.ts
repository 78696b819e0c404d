// HDR histograms in microseconds: recorded in the generator threads, shipped compressed, merged here.
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from "hdr-histogram-js";
import type { LatencySummary } from "#contracts/loadtest/result.ts";

/** 1 µs resolution at 3 significant digits, resizing beyond an hour if ever needed */
export function newHistogram(): Histogram {
  return build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    numberOfSignificantValueDigits: 3,
    bitBucketSize: 32,
    autoResize: true,
  });
}

export function encodeHistogram(h: Histogram): string {
  return h.totalCount === 0 ? "" : encodeIntoCompressedBase64(h);
}

export function mergeEncoded(into: Histogram, encoded: string): void {
  if (encoded === "") return;
  const h = decodeFromCompressedBase64(encoded);
  into.add(h);
  h.destroy();
}

/** Rounded to 0.01 ms: the histogram keeps 3 significant digits anyway. */
const ms = (us: number) => Math.round(us / 10) / 100;

export function summarize(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { count: 0, min: 0, p50: 0, avg: 0, p95: 0, p99: 0, max: 0 };
  return {
    count: h.totalCount,
    min: ms(h.minNonZeroValue),
    p50: ms(h.getValueAtPercentile(50)),
    avg: ms(h.mean),
    p95: ms(h.getValueAtPercentile(95)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
  };
}
