// What every registered wire format must do, as data: one row per format id. conformance.test.ts
// runs the shared checks over these rows and fails when a registered format has no row, so a new
// format joins by adding its row here (docs/design/codec-core.md, "Conformance suite").
import { Encoder as MsgpackEncoder } from "@msgpack/msgpack";
import { Encoder as CborEncoder } from "cbor-x";
import { decodeTarget, extremes300, extremesJson, oneString } from "./layouts.ts";
import { CBOR_X_OPTIONS } from "../../src/formats/cbor/codec.ts";
import { MSGPACK_OPTIONS } from "../../src/formats/msgpack/codec.ts";
import type { FormatId } from "../../src/formats/registry.ts";
import type { Layout } from "../../src/layout/schema.ts";
import type { PlainValue, TypedRecord } from "../../src/layout/values.ts";
import { sensor, sensorRecord } from "../fixtures/sensor.ts";

/** [input, offset the DecodeError names (-1: none, the layout refused a value), why it is bad] */
export type DecodeCase = readonly [string, number, string];

/** a record whose string holds a lone surrogate, and the EncodeError message that names its field */
export interface LoneSurrogateCase {
  layout: Layout;
  record: TypedRecord;
  message: RegExp;
}

export interface FormatConformance {
  /** FormatInfo fields the format must declare */
  info: { label: string; selfDescribing: boolean; compressed: boolean; lossy: boolean };
  /** the implementation text names this installed package's version, or matches this pattern */
  implementation?: { package: string } | { matches: RegExp };
  /** the layout as each encoding variant sees it (JSON: both spacings); one variant by default */
  variants?: (layout: Layout) => Layout[];
  /**
   * "absent": an uncompressed format whose size is not a sum of per-field parts (FlatBuffers' alignment
   * padding and shared vtables), so it has no FieldSizer and its sizes come from encode
   */
  sizeOnly?: "absent";
  /** every truncation of a valid message is a DecodeError (false: some prefixes are valid messages) */
  truncationsRejected: boolean;
  /** byte mutations of every-type messages: the seed and the share that must be rejected (measured, minus a margin) */
  mutations: { seed: number; rejectsAtLeast: number };
  /** records with a lone surrogate: EncodeError whose message names the field (every format has at least one) */
  loneSurrogate: readonly [LoneSurrogateCase, ...LoneSurrogateCase[]];
  /** bytes the Python reference writes for the sensor fixture (hex, or text for JSON) */
  pythonBytes?: { by: string; variant: number; hex?: string; text?: string }[];
  /** the library whose one-shot output each key and value piece must equal */
  library?: { name: string; encode: (v: PlainValue) => Uint8Array };
  /** the sensor record's map header, keys and nested group spans (self-describing maps) */
  mapSpans?: boolean;
  /** records at the limits of every form the encoder chooses between: round trip bit-exact */
  extremes?: { layout: Layout; records: TypedRecord[] };
  /** strict decoding: each input is refused with a DecodeError at this offset */
  strictDecode?: { layout: Layout; input: "hex" | "utf8"; cases: DecodeCase[] };
}

const withSpacing = (layout: Layout): Layout[] => [
  { ...layout, json: { spacing: "python" } },
  { ...layout, json: { spacing: "compact" } },
];

const sensorSurrogate = (ch: string, message: RegExp): [LoneSurrogateCase] => [
  { layout: sensor, record: { ...sensorRecord, name: `x${ch}` }, message },
];

const cborLib = new CborEncoder(CBOR_X_OPTIONS);
const msgpackLib = new MsgpackEncoder(MSGPACK_OPTIONS);

export const CONFORMANCE: Record<FormatId, FormatConformance> = {
  json: {
    info: { label: "JSON", selfDescribing: true, compressed: false, lossy: false },
    implementation: { matches: /json\.dumps/ },
    variants: withSpacing,
    truncationsRejected: true,
    // 95.8 % of the mutated documents were rejected when the floor was set
    mutations: { seed: 12345, rejectsAtLeast: 0.9 },
    loneSurrogate: [
      { layout: oneString("s"), record: { s: "a\ud800b" }, message: /s: string holds a lone surrogate/ },
      { layout: oneString("s"), record: { s: "\udc00" }, message: /s: string holds a lone surrogate/ },
    ],
    pythonBytes: [
      {
        by: "json.dumps(obj): ', ' and ': ', ensure_ascii escapes (astral as a surrogate pair), float32 as printed",
        variant: 0,
        text: '{"name": "h\\u00e9 \\ud83d\\udea2\\n", "count": 42, "temp": 17.23, "ratio": 0.1, "ok": true, "big": -9223372036854775808, "raw": "AQID", "vals": [1.5, -0.0, NaN, Infinity], "pos": {"lat": 43.7}, "mode": 1, "t": "-05.50"}',
      },
      {
        by: 'json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode(): no spaces, UTF-8 as is, control characters still escaped',
        variant: 1,
        hex: "7b226e616d65223a2268c3a920f09f9aa25c6e222c22636f756e74223a34322c2274656d70223a31372e32332c22726174696f223a302e312c226f6b223a747275652c22626967223a2d393232333337323033363835343737353830382c22726177223a2241514944222c2276616c73223a5b312e352c2d302e302c4e614e2c496e66696e6974795d2c22706f73223a7b226c6174223a34332e377d2c226d6f6465223a312c2274223a222d30352e3530227d",
      },
    ],
    extremes: extremesJson,
    strictDecode: {
      layout: decodeTarget(),
      input: "utf8",
      cases: [
        ['{"a":1} x', 8, "trailing bytes"],
        ['{"a":1,"a":2}', 7, "duplicate key"],
        ['{"s":"\\q"}', 6, "invalid escape"],
        ['{"s":"\\ud800"}', 6, "high surrogate without its low half"],
        ['{"s":"\\ud800\\u0041"}', 6, "high surrogate followed by a non-surrogate"],
        ['{"s":"\\udc00"}', 6, "lone low surrogate"],
        ['{"s":"\\u12"}', 6, "truncated \\u escape"],
        ['{"s":"\u0001"}', 6, "raw control character"],
        ['{"s":"abc', 5, "unterminated string"],
        ['{"a":01}', 6, "leading zero"],
        ['{"a":1.}', 7, "no digit after the point"],
        ['{"a":1e}', 7, "no exponent digits"],
        ['{"a":-}', 6, "lone minus"],
        ['{"a":+1}', 5, "plus sign"],
        ['{"a":nan}', 5, "lower-case nan"],
        ['{"a":1,}', 7, "trailing comma"],
        ['{"a" 1}', 5, "missing colon"],
        ["{'a':1}", 1, "single quotes"],
        ["", 0, "empty input"],
        ["   ", 3, "only whitespace"],
        ['{"a":1', 6, "unexpected end"],
        ["[1]", 0, "not a map"],
      ],
    },
  },
  cbor: {
    info: { label: "CBOR", selfDescribing: true, compressed: false, lossy: false },
    implementation: { package: "cbor-x" },
    truncationsRejected: true,
    // 66.8 % of the mutated documents were rejected when the floor was set
    mutations: { seed: 99, rejectsAtLeast: 0.6 },
    // cbor-x would write invalid UTF-8
    loneSurrogate: sensorSurrogate("\udc00", /name: string holds a lone surrogate/),
    pythonBytes: [
      {
        by: "cbor2.dumps with float32 fields as 0xfa",
        variant: 0,
        hex: "ab646e616d656968c3a920f09f9aa20a65636f756e74182a6474656d70fa4189d70a65726174696ffb3fb999999999999a626f6bf5636269673b7fffffffffffffff63726177430102036476616c7384fa3fc00000fa80000000fa7fc00000fa7f80000063706f73a1636c6174fb4045d9999999999a646d6f6465016174662d30352e3530",
      },
    ],
    library: { name: "cbor-x", encode: (v) => cborLib.encode(v) },
    mapSpans: true,
    extremes: extremes300,
    strictDecode: {
      layout: decodeTarget(),
      input: "hex",
      cases: [
        ["a1616101 00", 4, "trailing bytes"],
        ["a1617362c0af", 4, "invalid UTF-8 (overlong)"],
        ["a1617362eda080", 4, "invalid UTF-8 (surrogate)"],
        ["a2616101616102", 4, "duplicate key"],
        ["a10101", 1, "integer key"],
        ["a1416101", 1, "byte-string key"],
        ["a16161c101", 3, "tag"],
        ["bf616101ff", 0, "indefinite-length map"],
        ["a161737f6161ff", 3, "indefinite-length text"],
        ["a16161f7", 3, "undefined"],
        ["a16161f0", 3, "simple value"],
        ["a161611c", 3, "reserved additional information"],
        ["ff", 0, "break outside an indefinite item"],
        ["a161619bffffffffffffffff", 3, "array count beyond the input"],
        ["a161735b0000000100000000", 3, "8-byte text length beyond the input"],
        ["b9ffff", 0, "map count beyond the input"],
        ["", 0, "empty input"],
        ["a1616118", 3, "truncated argument"],
        ["a16161fa0000", 3, "truncated float"],
        ["01", 0, "not a map"],
        ["80", 0, "an array"],
        ["a0a0", 1, "two maps"],
        ["a1616201", -1, "unknown key"],
        ["a16161190100", -1, "256 for a u8"],
        ["a1616120", -1, "negative for a u8"],
        ["a16161f5", -1, "bool for an int"],
        ["a16161fb3ff8000000000000", -1, "1.5 for an int"],
        [`a1617369${"61".repeat(9)}`, -1, "string longer than maxLength"],
      ],
    },
  },
  // Integer keys: the values are the text-keyed CBOR's (its sink), proven byte by byte against
  // cbor2 in test/reference/selfdescribing.test.ts; no `library` or `mapSpans` row, both of which
  // compare text keys
  "cbor-int": {
    info: { label: "CBOR, integer keys", selfDescribing: true, compressed: false, lossy: false },
    implementation: { package: "cbor-x" },
    truncationsRejected: true,
    // 54.2 % of the mutated documents were rejected when the floor was set (fewer than CBOR's: a
    // changed key byte often names another field, whose value may fit)
    mutations: { seed: 99, rejectsAtLeast: 0.5 },
    loneSurrogate: sensorSurrogate("\udc00", /name: string holds a lone surrogate/),
    pythonBytes: [
      {
        by: "cbor2.dumps of the number-keyed dict, float32 fields as 0xfa",
        variant: 0,
        hex: "ab016968c3a920f09f9aa20a02182a03fa4189d70a04fb3fb999999999999a05f5063b7fffffffffffffff07430102030884fa3fc00000fa80000000fa7fc00000fa7f80000009a101fb4045d9999999999a0a010b662d30352e3530",
      },
    ],
    extremes: extremes300,
    strictDecode: {
      // a is number 1 (u8), s is number 2 (string of at most 8)
      layout: decodeTarget(),
      input: "hex",
      cases: [
        ["a10101 00", 3, "trailing bytes"],
        ["a20101 0102", 3, "duplicate key"],
        ["a1616101", 1, "text key"],
        ["a1416101", 1, "byte-string key"],
        ["a12001", 1, "negative key"],
        ["a1a1010101", 1, "map as a key"],
        ["a11901", 1, "truncated key"],
        ["a101c101", 2, "tag"],
        ["bf0101ff", 0, "indefinite-length map"],
        ["a10262c0af", 3, "invalid UTF-8 (overlong)"],
        ["a101fa0000", 2, "truncated float"],
        ["", 0, "empty input"],
        ["01", 0, "not a map"],
        ["a0a0", 1, "two maps"],
        ["a10301", -1, "unknown number"],
        ["a101190100", -1, "256 for a u8"],
        ["a101f5", -1, "bool for an int"],
        [`a10269${"61".repeat(9)}`, -1, "string longer than maxLength"],
      ],
    },
  },
  msgpack: {
    info: { label: "MessagePack", selfDescribing: true, compressed: false, lossy: false },
    implementation: { package: "@msgpack/msgpack" },
    truncationsRejected: true,
    // 65.4 % of the mutated documents were rejected when the floor was set
    mutations: { seed: 7, rejectsAtLeast: 0.6 },
    loneSurrogate: sensorSurrogate("\ud800", /name: string holds a lone surrogate/),
    pythonBytes: [
      {
        by: "msgpack.packb, float32 fields packed with use_single_float",
        variant: 0,
        hex: "8ba46e616d65a968c3a920f09f9aa20aa5636f756e742aa474656d70ca4189d70aa5726174696fcb3fb999999999999aa26f6bc3a3626967d38000000000000000a3726177c403010203a476616c7394ca3fc00000ca80000000ca7fc00000ca7f800000a3706f7381a36c6174cb4045d9999999999aa46d6f646501a174a62d30352e3530",
      },
    ],
    library: { name: "@msgpack/msgpack", encode: (v) => msgpackLib.encode(v) },
    mapSpans: true,
    extremes: extremes300,
    strictDecode: {
      layout: decodeTarget(),
      input: "hex",
      cases: [
        ["81a16101 00", 4, "trailing bytes"],
        ["81a173a2c0af", 4, "invalid UTF-8 (overlong)"],
        ["81a173a3eda080", 4, "invalid UTF-8 (surrogate)"],
        ["82a16101a16102", 4, "duplicate key"],
        ["810101", 1, "integer key"],
        ["81c4016101", 1, "bin key"],
        ["81a161d40100", 3, "fixext"],
        ["81a161c7010100", 3, "ext 8"],
        ["81a161c1", 3, "0xc1"],
        ["81a161dcffff", 3, "array count beyond the input"],
        ["81a173dbffffffff", 3, "str32 length beyond the input"],
        ["dfffffffff", 0, "map count beyond the input"],
        ["", 0, "empty input"],
        ["81a161cd00", 3, "truncated integer"],
        ["81a161ca0000", 3, "truncated float"],
        ["01", 0, "not a map"],
        ["90", 0, "an array"],
        ["8080", 1, "two maps"],
        ["81a16201", -1, "unknown key"],
        ["81a161cd0100", -1, "256 for a u8"],
        ["81a161ff", -1, "negative for a u8"],
        ["81a161c3", -1, "bool for an int"],
        ["81a161cb3ff8000000000000", -1, "1.5 for an int"],
        [`81a173a9${"61".repeat(9)}`, -1, "string longer than maxLength"],
      ],
    },
  },
  // Integer keys: the values are the text-keyed MessagePack's (its sink), proven byte by byte
  // against msgpack in test/reference/selfdescribing.test.ts; no `library` or `mapSpans` row, both
  // of which compare text keys
  "msgpack-int": {
    info: { label: "MessagePack, integer keys", selfDescribing: true, compressed: false, lossy: false },
    implementation: { package: "@msgpack/msgpack" },
    truncationsRejected: true,
    // 50.9 % of the mutated documents were rejected when the floor was set (fewer than
    // MessagePack's: a changed key byte often names another field, whose value may fit)
    mutations: { seed: 7, rejectsAtLeast: 0.47 },
    loneSurrogate: sensorSurrogate("\ud800", /name: string holds a lone surrogate/),
    pythonBytes: [
      {
        by: "msgpack.packb of the number-keyed dict, float32 fields packed with use_single_float",
        variant: 0,
        hex: "8b01a968c3a920f09f9aa20a022a03ca4189d70a04cb3fb999999999999a05c306d3800000000000000007c4030102030894ca3fc00000ca80000000ca7fc00000ca7f800000098101cb4045d9999999999a0a010ba62d30352e3530",
      },
    ],
    extremes: extremes300,
    strictDecode: {
      // a is number 1 (u8), s is number 2 (string of at most 8)
      layout: decodeTarget(),
      input: "hex",
      cases: [
        ["810101 00", 3, "trailing bytes"],
        ["820101 0102", 3, "duplicate key"],
        ["81a16101", 1, "text key"],
        ["81c4016101", 1, "bin key"],
        ["81ff01", 1, "negative key"],
        ["81d00101", 1, "int 8 key"],
        ["81cd00", 1, "truncated key"],
        ["8101d40100", 2, "fixext"],
        ["8102a2c0af", 3, "invalid UTF-8 (overlong)"],
        ["8101ca0000", 2, "truncated float"],
        ["", 0, "empty input"],
        ["01", 0, "not a map"],
        ["8080", 1, "two maps"],
        ["810301", -1, "unknown number"],
        ["8101cd0100", -1, "256 for a u8"],
        ["8101c3", -1, "bool for an int"],
        [`8102a9${"61".repeat(9)}`, -1, "string longer than maxLength"],
      ],
    },
  },
  protobuf: {
    info: { label: "Protocol Buffers", selfDescribing: false, compressed: false, lossy: false },
    implementation: { matches: /proto3 wire format/ },
    // proto3 has no message framing: a prefix that ends on a field boundary is a valid message
    truncationsRejected: false,
    // 54.3 % of the mutated messages were rejected when the floor was set
    mutations: { seed: 99, rejectsAtLeast: 0.5 },
    loneSurrogate: [
      ...sensorSurrogate("\udc00", /name: string holds a lone surrogate/),
      { layout: oneString("s"), record: { s: "x\udc00" }, message: /s: string holds a lone surrogate/ },
      { layout: oneString("s"), record: { s: "a\ud800b" }, message: /s: string holds a lone surrogate/ },
    ],
  },
  struct: {
    info: { label: "Struct", selfDescribing: false, compressed: false, lossy: false },
    implementation: { matches: /struct\.pack/ },
    truncationsRejected: true,
    // 26.5 % of the mutated messages were rejected when the floor was set (fixed fields take any bytes)
    mutations: { seed: 99, rejectsAtLeast: 0.24 },
    loneSurrogate: sensorSurrogate("\udc00", /name: holds a lone surrogate/),
  },
  "struct-zlib": {
    info: { label: "Struct+Zlib", selfDescribing: false, compressed: true, lossy: false },
    implementation: { package: "pako" },
    truncationsRejected: true,
    // 99.8 % of the mutated streams were rejected when the floor was set (adler32 and inflate checks)
    mutations: { seed: 99, rejectsAtLeast: 0.95 },
    loneSurrogate: sensorSurrogate("\udc00", /name: holds a lone surrogate/),
  },
  sbe: {
    info: { label: "SBE", selfDescribing: false, compressed: false, lossy: false },
    implementation: { matches: /SBE 1\.0/ },
    truncationsRejected: true,
    // 31.9 % of the mutated messages were rejected when the floor was set
    mutations: { seed: 99, rejectsAtLeast: 0.29 },
    loneSurrogate: sensorSurrogate("\udc00", /name: holds a lone surrogate/),
  },
  flatbuffers: {
    info: { label: "FlatBuffers", selfDescribing: false, compressed: false, lossy: false },
    implementation: { package: "flatbuffers" },
    sizeOnly: "absent",
    truncationsRejected: true,
    // 54.9 % of the mutated messages were rejected when the floor was set
    mutations: { seed: 99, rejectsAtLeast: 0.5 },
    loneSurrogate: [
      ...sensorSurrogate("\udc00", /name: holds a lone surrogate/),
      { layout: oneString("s"), record: { s: "a\ud800b" }, message: /s: holds a lone surrogate/ },
    ],
  },
  pson: {
    info: { label: "PSON", selfDescribing: true, compressed: false, lossy: false },
    implementation: { matches: /PSON wire format/ },
    truncationsRejected: true,
    // 70.8 % of the mutated documents were rejected when the floor was set
    mutations: { seed: 3, rejectsAtLeast: 0.65 },
    loneSurrogate: [
      { layout: oneString("v"), record: { v: "\ud800" }, message: /lone surrogate/ },
      { layout: oneString("v"), record: { v: "a\udc00" }, message: /v: string holds a lone surrogate/ },
    ],
    extremes: extremes300,
    strictDecode: {
      layout: decodeTarget({ kind: "int", bits: 64, signed: true }),
      input: "hex",
      cases: [
        ["c1816101 00", 4, "trailing bytes"],
        ["c1817382c0af", 4, "invalid UTF-8 (overlong)"],
        ["c1817383eda080", 4, "invalid UTF-8 (surrogate)"],
        ["c2816101816102", 4, "duplicate key"],
        ["c10101", 1, "integer key"],
        ["c1a1616101", 1, "bytes key"],
        ["c181611f05", 3, "small value as a varint"],
        ["c181611f8000", 3, "varint not in its shortest form"],
        ["c181611fffffffffffffffffffff01", 3, "varint longer than 64 bits"],
        ["c181611f80", 3, "truncated varint"],
        ["c1816120", 3, "signed zero"],
        ["c18161420000000000000000", 3, "unknown float width"],
        ["c181614000", 3, "truncated float"],
        ["c1816163", 3, "unknown discrete value"],
        ["c181619f7f", 3, "string length beyond the input"],
        ["c18161ff1f", 3, "array count beyond the input"],
        ["df7f", 0, "map count beyond the input"],
        ["", 0, "empty input"],
        ["01", 0, "not a map"],
        ["e0", 0, "an array"],
        ["c0c0", 1, "two maps"],
        ["c1816201", -1, "unknown key"],
        ["c1816161", -1, "bool for an int"],
        ["c18161419a9999999999b93f", -1, "0.1 for an int"],
        [`c1817389${"61".repeat(9)}`, -1, "string longer than maxLength"],
      ],
    },
  },
  bitpacked: {
    info: { label: "Bit-packed", selfDescribing: false, compressed: false, lossy: true },
    implementation: { matches: /bit packer/ },
    truncationsRejected: true,
    // 16.6 % of the mutated messages were rejected when the floor was set (most bit patterns are values)
    mutations: { seed: 99, rejectsAtLeast: 0.14 },
    loneSurrogate: sensorSurrogate("\udc00", /name: holds a lone surrogate/),
  },
};
