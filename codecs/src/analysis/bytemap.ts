// One sample's bytes with the field that owns each range: what the hex view colours.
import { BitpackedCompiled, type BitSpan } from "../formats/bitpacked/codec.ts";
import { codecFor, type FormatId } from "../formats/registry.ts";
import type { EncodedWithSpans, Span } from "../formats/types.ts";
import type { Layout } from "../layout/schema.ts";
import type { TypedRecord } from "../layout/values.ts";

export interface ByteMap {
  format: FormatId;
  bytes: Uint8Array;
  /** ordered, non-overlapping, covering every byte */
  spans: Span[];
  compressed: boolean;
  /** compressed formats: the stream before compression, with the fields' own spans */
  uncompressed?: ByteMap;
  /**
   * bit-packed only: the exact owner of every bit (bytes shared by two fields are given to the
   * one with most bits in `spans`, so the hex view can show the precise split from here)
   */
  bits?: BitSpan[];
}

function toMap(format: FormatId, enc: EncodedWithSpans, compressed: boolean): ByteMap {
  const out: ByteMap = { format, bytes: enc.bytes, spans: enc.spans, compressed };
  if (enc.uncompressed) out.uncompressed = toMap(format, enc.uncompressed, false);
  return out;
}

/** Throws EncodeError when the sample cannot be encoded in the format. */
export function byteMap(layout: Layout, record: TypedRecord, format: FormatId): ByteMap {
  const codec = codecFor(layout, format);
  if (codec instanceof BitpackedCompiled) {
    const enc = codec.encodeWithBitSpans(record);
    return { format, bytes: enc.bytes, spans: enc.spans, compressed: false, bits: enc.bits };
  }
  return toMap(format, codec.encodeWithSpans(record), codec.info.compressed);
}
