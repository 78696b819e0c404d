// "#codecs/plans": how each format lays a layout out, for code that must write or read the same bytes and
// text somewhere else — the exporters (C structs, SBE XML, Kaitai, nanopb, network decoders), the advisor
// (bit-packed widths) and the gateway bench (one format's compiled codec). A plan is the codec's own
// model, not a copy, so a generated decoder cannot drift from the codec. Listed by name like "#codecs".

// Struct and SBE: byte offsets, primitive codes, null values
export {
  isAppended,
  planStruct,
  PREFIX_BYTES,
  type StructField,
  type StructNode,
  type StructPlan,
} from "./formats/struct/structPlan.ts";
export { planSbe, type SbeField, type SbePlan, type SbeScalar } from "./formats/sbe/sbePlan.ts";
export { compileSbe } from "./formats/sbe/codec.ts";
export { sbeNull, type PrimCode, type Raw } from "./formats/fixed/prim.ts";
export { epochIsU32, type NumericSlot } from "./formats/fixed/numeric.ts";

// FlatBuffers: the .fbs text and the table model (slot ids, types, defaults) the codec writes from
export { flatbuffersSchema } from "./formats/flatbuffers/schema.ts";
export {
  flatbuffersModel,
  type FbEnum,
  type FbField,
  type FbModel,
  type FbNode,
  type FbTable,
} from "./formats/flatbuffers/model.ts";
export { flatbuffersEncode } from "./formats/flatbuffers/encode.ts";
export { flatbuffersCodec } from "./formats/flatbuffers/codec.ts";

// bit-packed: per-field bit widths and alphabets
export { bitpackedPlan, BitpackedCompiled } from "./formats/bitpacked/codec.ts";
export { layoutSpecs, type FieldSpec, type ScalarSpec } from "./formats/bitpacked/plan.ts";
export type { Alphabet } from "./formats/bitpacked/charsets.ts";
export { bitLength } from "./formats/bitpacked/quantise.ts";

// Protobuf: the message model and its names
export { protobufCodec } from "./formats/protobuf/codec.ts";
export {
  protoModel,
  type ProtoEnum,
  type ProtoField,
  type ProtoMessage,
  type ValueMap,
} from "./formats/protobuf/model.ts";
export { protoFieldName } from "./formats/protobuf/names.ts";
export { reflectModel } from "./formats/protobuf/reflect.ts";

// CBOR-int and MsgPack-int: each field's key number
export { fieldNumber, numberedLayout } from "./formats/selfdescribing/intKeys.ts";

// the value rules every format shares: fixed point, time resolution, number and text forms
export { fixedPoint, fixedTicks } from "./layout/fixedPoint.ts";
export { resolutionDecimals } from "./layout/timeTicks.ts";
export { count, showNumber } from "./layout/messages.ts";
export { decimalPlaces, padInteger, pyFixed, roundTo } from "./text/numbers.ts";
export { compileTextTime, formatResolution, formatTimestamp, parseTimestamp } from "./text/timestamp.ts";
export { charsetPattern, checkScalar } from "./text/check.ts";
export { pyFloat32Repr } from "./formats/selfdescribing/float32Text.ts";

// batches (issue #27): the derived wire layout and what each wire field carries, for the exporters'
// readings ⇄ wire-record layers (C, network decoders): docs/design/batch-wire.md
export { batchPlanFor } from "./batch/codec.ts";
export {
  keyframeCount,
  type BatchPlan,
  type ColumnPlan,
  type DeltaPlan,
  type LeafPlan,
  type TimePlan,
} from "./batch/plan.ts";
export type { Leaf, Units } from "./batch/leaves.ts";

// SCHC (RFC 8724 / 8824): the uplink rule built from the stack's addresses, ports and Uri-Path, its
// residue and packet size, and the packets it compresses, for planning's bytes on air and the rule export
export { coapUriPath, layoutStackId } from "./schc/path.ts";
export {
  coapIpv6Packet,
  parseIpv6,
  SCHC_DEFAULTS,
  SchcError,
  schcCompress,
  schcMessageIds,
  schcPacketBytes,
  schcResidueBits,
  schcUplinkRule,
  type SchcCda,
  type SchcMo,
  type SchcParams,
  type SchcRule,
  type SchcRuleField,
} from "./schc/rule.ts";

// FlatBuffers: the generated .fbs read back into tables and slots (what the evolution rules compare),
// for the exporters' README and the proofs that walk every slot through flatc-generated readers
export {
  FbsParseError,
  parseFbs,
  slotShape,
  type FbsSchema,
  type FbsSlot,
  type FbsTable,
  type SlotShape,
} from "./evolution/fbsSchema.ts";
