// Where the bytes go: mean bytes per top-level field, and what the format spends on keys, tags, lengths and headers.
import { BitpackedCompiled } from "../formats/bitpacked/codec.ts";
import { codecFor, type FormatId } from "../formats/registry.ts";
import type { CompiledCodec, EncodedWithSpans, Span } from "../formats/types.ts";
import type { Layout } from "../layout/schema.ts";
import type { TypedRecord } from "../layout/values.ts";

export interface FieldShare {
  fieldId: string;
  key: string;
  name: string;
  /** mean bytes of this field's values (bit-packed: bits / 8, so fractions occur) */
  bytes: number;
}

/**
 * Means over the samples that encode: sum(fields.bytes) + framing = the mean size of the stream
 * the fields live in. For compressed formats that is the stream before compression, and
 * compressionDelta = mean(compressed − uncompressed), so sum + framing + compressionDelta = total.
 */
export interface Attribution {
  format: FormatId;
  /** top-level fields in layout order */
  fields: FieldShare[];
  /** keys, tags, length prefixes, counts, headers, presence bits and padding */
  framing: number;
  /** mean encoded size as sent */
  total: number;
  compressionDelta?: number;
  /** samples attributed (those that encoded) */
  samples: number;
}

/** Adds each value span's length to its top-level field; everything else is framing. */
function accumulate(spans: readonly Span[], slot: Map<string, number>, perField: Float64Array, unit: number): number {
  let framing = 0;
  for (const s of spans) {
    const len = (s.end - s.start) * unit;
    if (s.role !== "value" || s.field === "") {
      framing += len;
      continue;
    }
    const cut = s.field.indexOf("/");
    const i = slot.get(cut < 0 ? s.field : s.field.slice(0, cut));
    if (i === undefined) framing += len;
    else perField[i]! += len;
  }
  return framing;
}

function encodeForAttribution(
  codec: CompiledCodec,
  rec: TypedRecord,
): { spans: readonly Span[]; unit: number; size: number; streamSize: number } {
  // bit-packed fields share bytes; its bit spans give each field its exact share
  if (codec instanceof BitpackedCompiled) {
    const enc = codec.encodeWithBitSpans(rec);
    return { spans: enc.bits, unit: 1 / 8, size: enc.bytes.length, streamSize: enc.bytes.length };
  }
  const enc: EncodedWithSpans = codec.encodeWithSpans(rec);
  const stream = enc.uncompressed ?? enc;
  return { spans: stream.spans, unit: 1, size: enc.bytes.length, streamSize: stream.bytes.length };
}

export function attribute(layout: Layout, records: readonly TypedRecord[], format: FormatId): Attribution {
  const codec = codecFor(layout, format);
  const slot = new Map(layout.fields.map((f, i) => [f.id, i]));
  const perField = new Float64Array(layout.fields.length);
  let framing = 0;
  let total = 0;
  let stream = 0;
  let samples = 0;
  for (const rec of records) {
    let enc;
    try {
      enc = encodeForAttribution(codec, rec);
    } catch {
      continue;
    }
    framing += accumulate(enc.spans, slot, perField, enc.unit);
    total += enc.size;
    stream += enc.streamSize;
    samples++;
  }
  const mean = (x: number): number => (samples ? x / samples : 0);
  const out: Attribution = {
    format,
    fields: layout.fields.map((f, i) => ({ fieldId: f.id, key: f.key, name: f.name, bytes: mean(perField[i]!) })),
    framing: mean(framing),
    total: mean(total),
    samples,
  };
  if (codec.info.compressed) out.compressionDelta = mean(total - stream);
  return out;
}
