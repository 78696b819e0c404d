// The contract every wire format implements; sizes, attribution, the byte map, services and exports build on it.
import type { FieldSizer } from "./sizer.ts";
import type { Layout } from "../layout/schema.ts";
import type { PlainValue, TypedRecord } from "../layout/values.ts";
import type { PlainMode } from "../text/plain.ts";

export const FORMAT_IDS = [
  "json",
  "cbor",
  "msgpack",
  "protobuf",
  "struct",
  "struct-zlib",
  "sbe",
  "pson",
  "bitpacked",
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

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
   * Read "as sent" through formats/asSent.ts.
   */
  readonly document?: { read(bytes: Uint8Array): PlainValue; mode: PlainMode };
}

export interface Codec {
  readonly info: FormatInfo;
  /** throws LayoutError when the layout cannot be expressed in this format */
  compile(layout: Layout): CompiledCodec;
}
