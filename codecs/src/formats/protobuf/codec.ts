// Protocol Buffers (proto3): the paper's recommended format. Bytes equal Python protobuf's SerializeToString.
//
// Layout → proto3 mapping (generateProto writes the same schema as a .proto file):
//   bool                → bool
//   enum                → an enum named after the field ("mode" → Mode, values MODE_<NAME>); proto3 needs
//                         a zero, so a layout enum without 0 gets MODE_UNSPECIFIED = 0, which never
//                         decodes to a value (DecodeError, also when a required field is missing)
//   int 8–32 unsigned   → uint32            signed → sint32 (zigzag)
//   int 64   unsigned   → uint64            signed → sint64
//     options.protobuf.intEncoding: "varint" → uint32/int32 (uint64/int64), "zigzag" → sint32/sint64,
//     "fixed" → fixed32/sfixed32 (fixed64/sfixed64)
//   float32 / float64   → float / double (NaN, ±Infinity and -0.0 bit-exact)
//   fixed-point         → the scaled integer raw = round((v − offset) / scale): uint32 when raw ≥ 0,
//                         else sint32, 64-bit when the raw range needs it (intEncoding applies too)
//   timestamp epoch     → uint32 of v / resolution when resolution ≥ 1 and min..max fits, else int64
//   timestamp text      → string, formatted with textFormat
//   string / bytes      → string / bytes (maxLength and charset checked both ways)
//   array               → repeated, packed for numeric elements; a fixed array with
//                         options.protobuf.expand becomes one scalar field per element, key_<suffix>,
//                         numbered consecutively (the paper's acc → acc_x = 11, acc_y = 12, acc_z = 13)
//   group               → a nested message named after the field
//   field names         → the key with every character outside [A-Za-z0-9_] replaced by "_" (and a "_"
//                         in front of a leading digit, which protoc rejects); clashes are LayoutErrors
//   numbers             → options.protobuf.number (assigned by parseLayout when absent);
//                         layout.protobufReserved becomes `reserved`
// Presence: required fields use proto3 implicit presence — a value equal to the default (0, false, "",
// empty bytes, enum 0, raw 0) is not written, exactly like Python, and a missing field decodes to that
// default (a DecodeError when the default is not a valid value, e.g. an enum without 0 or min > 0).
// Optional fields use proto3 `optional` (explicit presence) and are written whenever present. proto3
// cannot mark a repeated field optional, so an optional array that is empty decodes as absent.
// A required group is always written (possibly empty); a missing one decodes as all defaults.
// Wire order is ascending field number, as Python serializes.
// Decoding is strict about what the layout allows — wrong wire types, truncation, invalid UTF-8,
// unknown enum values, counts and lengths beyond the layout, out-of-range values are DecodeErrors —
// but unknown field numbers are skipped, as protobuf intends, so a newer sender stays readable.
// Because protobuf has no end marker, bytes after a message are just more fields: they decode when
// they are well-formed (unknown, or a repeated occurrence where the last scalar wins) and fail otherwise.
// protobufjs reflection types are built from the layout in compile() and decide each field's wire
// type, packing and presence; the hot path is a compiled writer/reader over those decisions, so
// encode/decode never build intermediate message objects and no code is generated at run time
// (protobufjs' own encode/decode would eval code, which the renderer's strict CSP forbids).
import { messageDecoder, readFields, type MessageDecoder } from "./decode.ts";
import { compileMessage, encoderOf, messageSizer } from "./encode.ts";
import { protoModel } from "./model.ts";
import { Reader } from "./reader.ts";
import { reflectFields } from "./reflect.ts";
import { spanMap, spansOf } from "./spans.ts";
import { Writer } from "./writer.ts";
import { DecodeError, EncodeError } from "../../errors.ts";
import type { Layout } from "../../layout/schema.ts";
import type { TypedRecord } from "../../layout/values.ts";
import { rethrowDecodeFailure } from "../decodeFailure.ts";
import type { Codec, CompiledCodec, EncodedWithSpans, FormatInfo } from "../types.ts";

const info: FormatInfo = {
  id: "protobuf",
  label: "Protocol Buffers",
  short: "Protobuf",
  exports: { networkDecoder: false, kaitai: false, firmware: true },
  selfDescribing: false,
  compressed: false,
  lossy: false,
  implementation:
    "proto3 wire format; schema as protobufjs 8 reflection types, compiled writer/reader (byte-identical to Python protobuf)",
};

const EMPTY = new Uint8Array(0);

function compile(layout: Layout): CompiledCodec {
  const model = protoModel(layout);
  const type = reflectFields(model);
  const plan = compileMessage(model.root, type);
  const encodeMessage = encoderOf(plan);
  // built on first use: the designer's sizes never decode nor map spans, and recompile on every edit
  let decoder: MessageDecoder | null = null;
  let spans: ReturnType<typeof spanMap> | null = null;
  const writer = new Writer();
  const reader = new Reader();

  const encode = (record: TypedRecord): Uint8Array => {
    if (typeof record !== "object" || record === null || Array.isArray(record))
      throw new EncodeError("expected a record object", "protobuf");
    writer.pos = 0;
    encodeMessage(record, writer);
    return writer.finish();
  };

  return {
    info,
    layout,
    encode,
    sizer: messageSizer(plan, new Writer()),
    encodeWithSpans(record: TypedRecord): EncodedWithSpans {
      const bytes = encode(record);
      return { bytes, spans: spansOf(bytes, (spans ??= spanMap(model.root))) };
    },
    decode(bytes: Uint8Array): TypedRecord {
      if (!(bytes instanceof Uint8Array)) throw new DecodeError("expected bytes", "protobuf");
      decoder ??= messageDecoder(model.root, type);
      try {
        reader.reset(bytes);
        const vals: unknown[] = new Array(decoder.size);
        readFields(decoder, reader, vals);
        return decoder.build(vals, reader);
      } catch (e) {
        rethrowDecodeFailure(e, "protobuf");
      } finally {
        reader.reset(EMPTY);
      }
    },
  };
}

export const protobufCodec: Codec = { info, compile };
