// Sizes and round trips, measured by really encoding and decoding samples with the format's codec.
import { codecFor, type FormatId, type Layout, type TypedRecord } from "#codecs";
import { measureSizes, type SizeStats } from "#codecs/analysis";
import type { BitpackedCompiled } from "#codecs/plans";

/**
 * Mean message size in bytes; bit-packed counts data bits / 8, so a change that saves 3 bits shows as 0.375 B
 * instead of vanishing in the padding. undefined when any record fails to encode.
 */
export function meanBytes(layout: Layout, records: readonly TypedRecord[], format: FormatId): number | undefined {
  if (!records.length) return 0;
  const codec = codecFor(layout, format);
  let sum = 0;
  try {
    if (format === "bitpacked") {
      const bp = codec as BitpackedCompiled;
      for (const r of records) sum += bp.encodeWithBitSpans(r).dataBits / 8;
    } else for (const r of records) sum += codec.encode(r).length;
  } catch {
    return undefined;
  }
  return sum / records.length;
}

export interface Measured {
  stats: SizeStats;
  failed: number;
  firstError?: string;
}

export function sizeStats(layout: Layout, records: readonly TypedRecord[], format: FormatId): Measured {
  const [m] = measureSizes(layout, records, [format]);
  return { stats: m!.stats, failed: m!.errors, ...(m!.firstError !== undefined ? { firstError: m!.firstError } : {}) };
}

/** decode(encode(r)) for every record; undefined entries where encoding failed. */
export function roundTrip(
  layout: Layout,
  records: readonly TypedRecord[],
  format: FormatId,
): (TypedRecord | undefined)[] {
  const codec = codecFor(layout, format);
  return records.map((r) => {
    try {
      return codec.decode(codec.encode(r));
    } catch {
      return undefined;
    }
  });
}
