// The contract every wire format implements; sizes, attribution, the byte map, services and exports build on it.
import type { FormatId } from "./registry.ts";
import type { FieldSizer } from "./sizer.ts";
import type { Finding } from "../evolution/types.ts";
import type { Layout } from "../layout/schema.ts";
import type { PlainValue, TypedRecord } from "../layout/values.ts";
import type { PlainMode } from "../text/plain.ts";

/**
 * Which bytes belong to what. `field` is the path of field ids from the top level ("gps/lat"),
 * empty for message framing (map headers, message headers, padding). `role` tells key/tag bytes
 * and length prefixes (attributed to framing in totals) from the value bytes themselves.
 */
export interface Span {
  start: number;
  end: number;
  field: string;
  role: "value" | "key" | "length" | "framing";
}

export interface EncodedWithSpans {
  bytes: Uint8Array;
  /** ordered, non-overlapping, covering every byte of `bytes` */
  spans: Span[];
  /** compressed formats: the stream before compression, with its own spans */
  uncompressed?: EncodedWithSpans;
}

/** Which exporters write this format; the exporters' own lists and every export menu follow these flags. */
export interface FormatExports {
  /** JavaScript decoders for network servers (TTN, ChirpStack, TS013) */
  networkDecoder: boolean;
  /** a Kaitai Struct .ksy description */
  kaitai: boolean;
  /** the C encoder of the firmware project */
  firmware: boolean;
}

export interface FormatInfo {
  id: FormatId;
  label: string;
  /** the label where room is short: chart axes, inline in sentences */
  short: string;
  exports: FormatExports;
  /** carries keys/types on the wire (JSON, CBOR, MessagePack, PSON); uses each field's text representation */
  selfDescribing: boolean;
  compressed: boolean;
  /** lossy formats quantise values (bit-packed) */
  lossy: boolean;
  /** one line that says how the bytes are produced (library and version, deflate implementation …) */
  implementation: string;
}

/** A format bound to one layout: everything layout-dependent is prepared once in compile(). */
export interface CompiledCodec {
  readonly info: FormatInfo;
  readonly layout: Layout;
  /** throws EncodeError when the record cannot be represented */
  encode(record: TypedRecord): Uint8Array;
  encodeWithSpans(record: TypedRecord): EncodedWithSpans;
  /** throws DecodeError (never anything else) on any malformed input */
  decode(bytes: Uint8Array): TypedRecord;
  /** size-only path from the same compiled plan; absent for compressed formats, whose size needs the bytes */
  readonly sizer?: FieldSizer;
  /**
   * Self-describing formats: the document as the bytes hold it, before the layout types it (the
   * device's own text and numbers), and how it holds bytes. Throws DecodeError on malformed input.
   * Read "as sent" through formats/asSent.ts. `named`, for integer-keyed formats: the document with
   * each field number replaced by its text key, which the layout types (throws DecodeError).
   */
  readonly document?: {
    read(bytes: Uint8Array): PlainValue;
    mode: PlainMode;
    named?: (doc: PlainValue) => PlainValue;
  };
}

export interface Codec {
  readonly info: FormatInfo;
  /** throws LayoutError when the layout cannot be expressed in this format */
  compile(layout: Layout): CompiledCodec;
}

/**
 * Everything about one wire format, declared in its folder (`formats/<id>/format.ts`) and listed once,
 * under its id, in `registry.ts`: the evolution report, the sizes workers and the decoder's ingest read
 * it from here rather than keeping their own tables (docs/design/add-a-format.md).
 */
export interface FormatModule {
  /** info (labels, flags, which exporters accept it) and compile; the compiled codec's `sizer` is the size-only path */
  readonly codec: Codec;
  /** schema evolution: what changing the layout from `oldLayout` to `newLayout` does to this format's readers */
  evolution(oldLayout: Layout, newLayout: Layout): Finding[];
  /**
   * Content-Types an ingest request may name this format by (lower case, the usual one first). Empty:
   * no registered media type exists, so the body travels as application/octet-stream with the format header.
   */
  readonly mediaTypes: readonly string[];
  /**
   * Relative encode cost, for splitting the formats over the sizes workers before any has reported
   * its own time (renderer/src/worker/pool.ts). Measured once on the paper preset: deflate dominates,
   * the self-describing text formats come next; only the ratios matter.
   */
  readonly workerCost: number;
}
