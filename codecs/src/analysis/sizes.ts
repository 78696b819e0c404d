// Encoded size of every sample in every format: the designer's per-keystroke path, so no spans and no extra copies.
import { summarize, type SizeStats } from "./stats.ts";
import { codecFor, FORMAT_IDS, type FormatId } from "../formats/registry.ts";
import type { Layout } from "../layout/schema.ts";
import type { TypedRecord } from "../layout/values.ts";

export { shareOver, summarize, type SizeStats } from "./stats.ts";

export interface FormatSizes {
  format: FormatId;
  /** sizes of the samples that encoded, in sample order (failed samples are left out) */
  sizes: Uint32Array;
  /** over `sizes`, i.e. the samples that encoded */
  stats: SizeStats;
  /** samples that could not be encoded (all of them when the layout does not compile for the format) */
  errors: number;
  firstError?: string;
  /** index of the sample that produced firstError */
  firstErrorSample?: number;
}

/** An encode or layout failure in the words the user acts on; anything else keeps its error name. */
export function describeError(e: unknown): string {
  if (e instanceof Error)
    return e.name === "EncodeError" || e.name === "LayoutError" ? e.message : `${e.name}: ${e.message}`;
  return String(e);
}

/** One format's sizes by encoding every record (the path of a format without a size-only path, too). */
export function measureOne(layout: Layout, records: readonly TypedRecord[], format: FormatId): FormatSizes {
  const n = records.length;
  let codec;
  try {
    codec = codecFor(layout, format);
  } catch (e) {
    return { format, sizes: new Uint32Array(0), stats: summarize([]), errors: n, firstError: describeError(e) };
  }
  const sizes = new Uint32Array(n);
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  let firstErrorSample = -1;
  for (let i = 0; i < n; i++) {
    try {
      sizes[ok] = codec.encode(records[i]!).length;
      ok++;
    } catch (e) {
      // one unrepresentable sample must not hide the sizes of the others
      if (errors++ === 0) {
        firstError = describeError(e);
        firstErrorSample = i;
      }
    }
  }
  const kept = ok === n ? sizes : sizes.slice(0, ok);
  const out: FormatSizes = { format, sizes: kept, stats: summarize(kept), errors };
  if (firstError !== undefined) {
    out.firstError = firstError;
    out.firstErrorSample = firstErrorSample;
  }
  return out;
}

/** Sizes per format (all formats unless `formats` narrows them), in the order asked. */
export function measureSizes(
  layout: Layout,
  records: readonly TypedRecord[],
  formats: readonly FormatId[] = FORMAT_IDS,
): FormatSizes[] {
  return formats.map((f) => measureOne(layout, records, f));
}
