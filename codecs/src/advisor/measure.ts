// Sizes and information, measured by really encoding and decoding samples with the format's codec.
import { measureSizes } from "../analysis/sizes.ts";
import type { SizeStats } from "../analysis/stats.ts";
import type { BitpackedCompiled } from "../formats/bitpacked.ts";
import { codecFor } from "../formats/registry.ts";
import type { FormatId } from "../formats/types.ts";
import type { Layout } from "../layout/schema.ts";
import type { FieldValue, TypedRecord } from "../layout/values.ts";

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
export function roundTrip(layout: Layout, records: readonly TypedRecord[], format: FormatId): (TypedRecord | undefined)[] {
  const codec = codecFor(layout, format);
  return records.map((r) => {
    try {
      return codec.decode(codec.encode(r));
    } catch {
      return undefined;
    }
  });
}

function keyOf(v: FieldValue | undefined): string | number | boolean | bigint | undefined {
  if (v instanceof Uint8Array) return `b:${Array.from(v).join(",")}`;
  if (typeof v === "string") return `s:${v}`;
  return v as number | boolean | bigint | undefined;
}

/** Shannon entropy (bits) of the values' empirical distribution; arrays count each element position on its own. */
export function entropyBits(values: readonly (FieldValue | undefined)[]): number {
  const first = values.find((v) => v !== undefined);
  if (Array.isArray(first)) {
    const width = Math.max(...values.map((v) => (Array.isArray(v) ? v.length : 0)));
    let sum = 0;
    for (let i = 0; i < width; i++) sum += entropyBits(values.map((v) => (Array.isArray(v) ? (v[i] as FieldValue | undefined) : undefined)));
    return sum;
  }
  const counts = new Map<unknown, number>();
  for (const v of values) {
    const k = keyOf(v);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const n = values.length;
  let h = 0;
  for (const c of counts.values()) h -= (c / n) * Math.log2(c / n);
  return h;
}
