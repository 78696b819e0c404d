// The protobuf codec on its own: hand-checked bytes, round trips, edge values, malformed input,
// byte attribution, and agreement with protobufjs reading and re-writing our bytes.
import fc from "fast-check";
import protobuf from "protobufjs/light.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DecodeError, EncodeError, LayoutError } from "../src/errors.ts";
import { everyTypeLayout, textRepLayout } from "./fixtures/layouts.ts";
import { everyTypeExtremes, optionsExtremes } from "./fixtures/protobuf-extremes.ts";
import { protobufOptionsLayout } from "./fixtures/protobuf-options.ts";
import { expectRejectedAtLeast, tallyRejections } from "./helpers/codecChecks.ts";
import { decodeUnlessRejected } from "./helpers/expectedErrors.ts";
import { protobufCodec } from "../src/formats/protobuf/codec.ts";
import { protoModel, type ProtoMessage } from "../src/formats/protobuf/model.ts";
import {
  nestedType,
  ofType,
  reflectFields,
  reflectModel,
  wireFacts,
  type Reflection,
} from "../src/formats/protobuf/reflect.ts";
import type { CompiledCodec } from "../src/formats/types.ts";
import type { LayoutInput } from "../src/layout/schema.ts";
import { parseLayout, parseLayoutShape } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { formatTimestamp, parseTimestamp } from "../src/text/timestamp.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const unhex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ""), "hex"));
const compile = (input: LayoutInput): CompiledCodec => protobufCodec.compile(parseLayout(input));
const ascii = (s: string) => Buffer.from(s, "utf8").toString("hex");

const paper = compile(paperPreset);
const everyType = compile(everyTypeLayout);
const options = compile(protobufOptionsLayout);

/** A paper record with values whose float32 encodings are easy to check by hand. */
const paperRecord: TypedRecord = {
  msisdn: "393600504873",
  iso6346: "LMCU0123456",
  time: 1748778312.3,
  rssi: 28,
  cgi: "999-01-1-31D41",
  "ble-m": 0,
  "bat-soc": 92,
  acc: [-993.5, -27, -52],
  temperature: 17,
  humidity: 71,
  pressure: 1012.5,
  door: "D",
  gnss: 1,
  latitude: 31.5,
  longitude: 28.75,
  altitude: 49.5,
  speed: 0,
  heading: 271.5,
  nsat: 6,
  hdop: 1.5,
};

// tag = field number << 3 | wire type; 0 = varint, 2 = length-delimited, 5 = 32-bit
const paperHex = [
  `0a 0c ${ascii("393600504873")}`, // 1 msisdn
  `12 0b ${ascii("LMCU0123456")}`, // 2 iso6346
  `1a 0f ${ascii("010625 114512.3")}`, // 3 time, formatted as the device writes it
  `22 0e ${ascii("999-01-1-31D41")}`, // 4 cgi
  `2a 01 ${ascii("D")}`, // 5 door
  "30 1c", // 6 rssi = 28: the paper's own example (key 0x30, value 0x1c)
  // 7 ble_m = 0 is the proto3 default: not written
  "40 5c", // 8 bat_soc = 92
  "48 01", // 9 gnss = 1
  "50 06", // 10 nsat = 6
  "5d 006078c4", // 11 acc_x = -993.5 (float32 little-endian)
  "65 0000d8c1", // 12 acc_y = -27
  "6d 000050c2", // 13 acc_z = -52
  "75 00008841", // 14 temperature = 17
  "7d 00008e42", // 15 humidity = 71
  "8501 00207d44", // 16 pressure = 1012.5 (tags ≥ 16 take two bytes)
  "8d01 0000fc41", // 17 latitude = 31.5
  "9501 0000e641", // 18 longitude = 28.75
  "9d01 00004642", // 19 altitude = 49.5
  // 20 speed = 0: not written
  "ad01 00c08743", // 21 heading = 271.5
  "b501 0000c03f", // 22 hdop = 1.5
].join(" ");

describe("protobuf: hand-checked bytes", () => {
  it("encodes the paper record in field-number order, skipping proto3 defaults", () => {
    expect(hex(paper.encode(paperRecord))).toBe(hex(unhex(paperHex)));
    expect(paper.decode(unhex(paperHex))).toEqual(paperRecord);
  });

  it("writes zigzag, sign-extended int32, fixed widths, packed arrays and nested messages", () => {
    const rec = { ...everyTypeExtremes[2]! };
    const bytes = everyType.encode(rec);
    const h = hex(bytes);
    expect(
      h.startsWith("0801" + "1001" + "1801" + "2001" + "28 8001".replace(" ", "") + "30 7f".replace(" ", "")),
    ).toBe(true);
    // u32 = 2^31 as uint32 varint; i32 = -1 as sint32 → 1
    expect(h).toContain("38 8080808008".replace(" ", "") + "4001");
    // u64 = 2^63 as uint64 varint (ten bytes), i64 = -1 as sint64 → 1
    expect(h).toContain("48 80808080808080808001".replace(" ", "") + "5001");
    // acc = [0, -1, 1] packed sint32: field 20, wire type 2 → a2 01, length 3
    expect(h).toContain("a201 03 00 01 02".replace(/ /g, ""));
    // temps = [-0, -40, 0] packed float: -0.0 keeps its sign bit inside a packed array
    expect(h).toContain("aa01 0c 00000080 000020c2 00000000".replace(/ /g, ""));
    // gps {lat: 0, lon: 0, sats: 0}: implicit zeros vanish, the optional 0 is written, the message is present
    expect(h).toContain("b201 02 1800".replace(/ /g, ""));
    // optional seq = 0 is present (explicit presence), msg = "日本語"
    expect(h.endsWith(`b80100c20109${ascii("日本語")}`)).toBe(true);
    expect(everyType.decode(bytes)).toEqual(rec);
  });

  it("writes int32 varint negatives as ten bytes and 64-bit fixed types little-endian", () => {
    const rec = optionsExtremes[0]!;
    const h = hex(options.encode(rec));
    expect(h).toContain("10 80808080f8ffffffff01".replace(" ", "")); // s_var = -2^31, int32 varint
    expect(h).toContain("35 ffffffff".replace(" ", "")); // sfix = -1, sfixed32
    expect(h).toContain("51 ffffffffffffffff".replace(" ", "")); // u64f = 2^64 - 1, fixed64
    expect(h).toContain("59 ffffffffffffff7f".replace(" ", "")); // i64f = 2^63 - 1, sfixed64
    expect(options.decode(unhex(h))).toEqual(rec);
  });

  it("moves content when a length needs two bytes (strings and nested messages ≥ 128 bytes)", () => {
    const rec = { ...optionsExtremes[1]!, ogrp: { x: 1, text: "y".repeat(200), tags: [] } };
    const h = hex(options.encode(rec));
    // ogrp: tag ba 01, length 205 = cd 01; inside: x = sint32 1 → 08 02, text: 12 c8 01 + 200 × "y"
    expect(h).toContain(`ba01 cd01 0802 12 c801 ${"79".repeat(200)}`.replace(/ /g, ""));
    // long = 200 × "é" = 400 bytes: tag fa 01, length 90 03
    expect(h).toContain(`fa01 9003 ${"c3a9".repeat(200)}`.replace(/ /g, ""));
    expect(options.decode(unhex(h))).toEqual(rec);
  });
});

describe("protobuf: round trips", () => {
  it("paper preset: 10 000 samples (seed 1) decode to themselves; mean size is Table 2's 138 bytes", () => {
    const samples = generateSamples(paper.layout, 10_000, 1);
    let total = 0;
    for (const s of samples) {
      const bytes = paper.encode(s);
      total += bytes.length;
      expect(paper.decode(bytes)).toEqual(s);
    }
    const mean = total / samples.length;
    console.log(`protobuf mean size, paper preset, 10 000 samples (seed 1): ${mean.toFixed(4)} bytes (paper: 138)`);
    expect(Math.abs(mean - 138)).toBeLessThanOrEqual(6);
    expect(mean).toBeCloseTo(138.0052, 4);
  });

  it.each([
    ["every type", everyTypeLayout],
    ["text representations", textRepLayout],
    ["protobuf options", protobufOptionsLayout],
  ] as const)("%s: 2 000 samples decode to themselves", (_name, input) => {
    const codec = compile(input);
    for (const s of generateSamples(codec.layout, 2000, 7)) expect(codec.decode(codec.encode(s))).toEqual(s);
  });

  it.each([
    ["every type", everyTypeLayout, everyTypeExtremes],
    ["protobuf options", protobufOptionsLayout, optionsExtremes],
  ] as const)(
    "%s: edge records (limits, -0.0, NaN, ±Infinity, empty, unicode, max lengths) survive",
    (_name, input, records) => {
      const codec = compile(input);
      for (const r of records) {
        const back = codec.decode(codec.encode(r));
        expect(back).toEqual(r);
        for (const [k, v] of Object.entries(r)) if (typeof v === "number") expect(Object.is(back[k], v)).toBe(true);
      }
    },
  );

  it("protobufjs reads our bytes and writes them back identically", () => {
    for (const [codec, n] of [
      [paper, 500],
      [everyType, 300],
      [options, 300],
    ] as const) {
      const type = reflectModel(protoModel(codec.layout));
      for (const s of generateSamples(codec.layout, n, 3)) {
        const ours = codec.encode(s);
        expect(hex(type.encode(type.decode(ours)).finish())).toBe(hex(ours));
      }
    }
  });
});

describe("protobuf: reflection one field at a time", () => {
  /** Every field's wire facts, nested messages included, as one reflection answers them. */
  const facts = (msg: ProtoMessage, r: Reflection): string[] =>
    msg.fields.flatMap((f) => [
      `${f.keyPath}#${f.number}: ${JSON.stringify(wireFacts(r, f))}`,
      ...(f.message ? facts(f.message, nestedType(r, f)) : []),
    ]);

  it.each([
    ["paper", paperPreset],
    ["every type", everyTypeLayout],
    ["text representations", textRepLayout],
    ["protobuf options", protobufOptionsLayout],
  ] as const)("%s: protobufjs decides the same per field as for the whole message", (_n, input) => {
    const model = protoModel(parseLayout(input));
    expect(facts(model.root, reflectFields(model))).toEqual(facts(model.root, ofType(reflectModel(model))));
  });

  it("asks again about a field whose declaration changed (the cache is keyed by what protobufjs sees)", () => {
    const base = parseLayout(everyTypeLayout);
    const before = protoModel(base);
    facts(before.root, reflectFields(before));
    // each edit changes what protobufjs decides for one field: its label, its element type, its presence
    const edits: ((f: (typeof base.fields)[number]) => (typeof base.fields)[number] | null)[] = [
      (f) => (f.type.kind === "int" && f.presence === "required" ? { ...f, presence: "optional" } : null),
      (f) =>
        f.type.kind === "array"
          ? { ...f, type: { ...f.type, of: { kind: "string", maxLength: 4, fixed: false, charset: "utf8" } } }
          : null,
      ({ sample: _drawn, ...f }) => (f.type.kind === "int" ? { ...f, type: { kind: "float", bits: 64 } } : null),
    ];
    for (const edit of edits) {
      const i = base.fields.findIndex((f) => edit(f) !== null);
      const edited = parseLayout({ ...base, fields: base.fields.map((f, j) => (j === i ? edit(f)! : f)) });
      const model = protoModel(edited);
      const got = facts(model.root, reflectFields(model));
      expect(got).toEqual(facts(model.root, ofType(reflectModel(model))));
      expect(got).not.toEqual(facts(before.root, ofType(reflectModel(before))));
    }
  });
});

describe("protobuf: encode errors", () => {
  const base = paperRecord;
  it.each([
    ["missing required", { ...base, rssi: undefined }, /rssi: is required/],
    ["above max", { ...base, rssi: 100 }, /rssi: 100 is outside 0\.\.99/],
    ["not an integer", { ...base, rssi: 2.5 }, /rssi: expected an integer/],
    ["wrong type", { ...base, msisdn: 5 }, /msisdn: expected a string/],
    ["too long", { ...base, door: "DO" }, /door: is longer than maxLength 1/],
    ["charset", { ...base, msisdn: "39360050487a" }, /msisdn: .*charset/],
    ["float range", { ...base, temperature: 86 }, /temperature: 86 is outside -40\.\.85/],
    ["fixed count", { ...base, acc: [1, 2] }, /acc: needs exactly 3 elements, got 2/],
    ["element type", { ...base, acc: [1, "2", 3] }, /acc\[1\]: expected a number/],
    ["text timestamp", { ...base, time: Number.NaN }, /time: expected epoch seconds/],
  ] as const)("%s → EncodeError", (_n, rec, message) => {
    expect(() => paper.encode(rec as TypedRecord)).toThrow(EncodeError);
    expect(() => paper.encode(rec as TypedRecord)).toThrow(message);
  });

  it("checks every other kind: enums, 64-bit limits, bytes, fixed-point, arrays, groups", () => {
    const ok = everyTypeExtremes[0]!;
    const bad: [TypedRecord, RegExp][] = [
      [{ ...ok, mode: "PARKED" }, /mode: "PARKED" is not one of IDLE, MOVING, ALARM/],
      [{ ...ok, u64: -1n }, /u64: -1 is outside 0\.\./],
      [{ ...ok, i64: 2n ** 63n }, /i64: 9223372036854775808 is outside/],
      [{ ...ok, u64: 1.5 }, /u64: expected a 64-bit integer/],
      [{ ...ok, raw: new Uint8Array(9) }, /raw: is 9 bytes, more than maxLength 8/],
      [{ ...ok, lat: Number.NaN }, /lat: expected a finite number/],
      [{ ...ok, lat: 90.5 }, /lat: 90\.5 is outside -90\.\.90/],
      [{ ...ok, temps: [1, 2, 3, 4, 5, 6, 7] }, /temps: holds at most 6 elements, got 7/],
      [{ ...ok, gps: { lat: 1 } }, /gps\.lon: is required/],
      [{ ...ok, gps: [1] as never }, /gps: expected an object/],
      [{ ...ok, note: "🚢🚢🚢🚢🚢x" }, /note: is 21 bytes, more than maxLength 20/],
      [{ ...ok, ts: 1 }, /ts: 1 is outside 1577836800\.\.2524608000/],
    ];
    for (const [rec, message] of bad) {
      expect(() => everyType.encode(rec)).toThrow(EncodeError);
      expect(() => everyType.encode(rec)).toThrow(message);
    }
    expect(() => everyType.encode(null as never)).toThrow(EncodeError);
  });

  it("an encode error leaves the codec usable", () => {
    expect(() => paper.encode({ ...paperRecord, hdop: 51 })).toThrow(EncodeError);
    expect(hex(paper.encode(paperRecord))).toBe(hex(unhex(paperHex)));
  });
});

describe("protobuf: malformed input is a DecodeError, never anything else", () => {
  const good = unhex(paperHex);
  const cat = (...parts: (Uint8Array | string)[]) =>
    unhex(parts.map((p) => (typeof p === "string" ? p : hex(p))).join(""));

  it.each([
    ["a zero byte after the message (field number 0)", cat(good, "00"), /field number 0/],
    [
      "wrong wire type for a known field (rssi as length-delimited)",
      cat(good, "32 01 00"),
      /rssi: wire type 2, expected 0/,
    ],
    ["out-of-range value (rssi = 100)", cat(good, "30 64"), /rssi: value outside 0\.\.99/],
    ["float out of range (temperature = 100)", cat(good, "75 0000c842"), /temperature: 100 is outside -40\.\.85/],
    ["a string longer than maxLength", cat(good, `2a 02 ${ascii("DO")}`), /door: 2 bytes, more than maxLength 1/],
    ["a charset violation", cat(good, `2a 01 ${ascii("x")}`), /charset/],
    ["a length past the end", cat(good, "0a 05 3132"), /runs past the end/],
    ["a truncated fixed32", cat(good, "75 0000"), /truncated/],
    ["a varint longer than ten bytes", cat(good, "30 ffffffffffffffffffff01"), /varint longer than ten bytes/],
    ["a truncated varint", cat(good, "30 ff"), /truncated varint/],
    ["wire type 6", cat(good, "fe 01"), /invalid wire type 6/],
    ["an end-group without a start", cat(good, "fc 01"), /end-group without a start/],
    ["a malformed text timestamp", cat(good, `1a 0f ${ascii("320625 114512.3")}`), /does not match DDMMYY hhmmss\.s/],
    ["a required text timestamp missing", cat(good).slice(0, 0), /time is missing/],
  ] as const)("%s", (_name, bytes, message) => {
    expect(() => paper.decode(bytes)).toThrow(DecodeError);
    expect(() => paper.decode(bytes)).toThrow(message);
  });

  it("rejects unknown enum values, proto3's added zero, counts and partial explicit groups", () => {
    const rec = optionsExtremes[1]!;
    const ok = options.encode(rec);
    const cases: [Uint8Array, RegExp][] = [
      [cat(ok, "9001 03"), /3 is not a value of the enum/], // state = 3
      [cat(ok, "9001 00"), /0 is not a value of the enum/], // state = STATE_UNSPECIFIED
      [cat(ok, "d201 03 010101 d201 03 010101"), /flags: more than 5 elements/], // 6 packed bools
      [cat(ok, "a5 01 0000803f"), /oacc\[1\] is missing/], // oacc_a without oacc_b
      [cat(ok, "ba01 03 0801 ff"), /truncated varint/], // ogrp whose inner message ends inside a varint
      [cat(ok, "ba01 02 1201"), /runs past the end/], // an inner length that leaves the inner message
    ];
    for (const [bytes, message] of cases) {
      expect(() => options.decode(bytes)).toThrow(DecodeError);
      expect(() => options.decode(bytes)).toThrow(message);
    }
    // a required enum without a zero value must be on the wire
    const noState = options.encode({ ...rec, state: "ON" });
    const withoutState = cat(hex(noState).replace("9001" + "01", ""));
    expect(() => options.decode(withoutState)).toThrow(/state is missing and proto3's default is not valid/);
    // a fixed-count array that arrives with the wrong count
    expect(() => everyType.decode(cat(everyType.encode(everyTypeExtremes[0]!), "a201 02 0000"))).toThrow(
      /acc: more than 3|needs exactly 3/,
    );
  });

  it("rejects invalid UTF-8 in a string field", () => {
    const bytes = cat(everyType.encode(everyTypeExtremes[0]!), "8201 02 c328");
    expect(() => everyType.decode(bytes)).toThrow(DecodeError);
    expect(() => everyType.decode(bytes)).toThrow(/invalid UTF-8/);
  });

  it("accepts unknown fields of every wire type, as protobuf intends", () => {
    const unknown = "f806 2a" + "f906 0102030405060708" + "fa06 03 616263" + "fd06 01020304" + "fb06 f806 01 fc06";
    expect(paper.decode(cat(good, unknown))).toEqual(paperRecord);
    expect(paper.decode(cat(unknown, good))).toEqual(paperRecord);
  });

  it("merges repeated occurrences like protobuf parsers: last scalar wins, packed and unpacked both accepted", () => {
    expect(paper.decode(cat(good, "30 1d")).rssi).toBe(29);
    const rec = { ...everyTypeExtremes[2]!, temps: [] as number[] };
    const bytes = everyType.encode(rec);
    // temps as two unpacked float elements (wire type 5) followed by a packed run
    const extra = "ad01 0000803f ad01 00000040 aa01 04 00004040";
    expect(everyType.decode(cat(bytes, extra)).temps).toEqual([1, 2, 3]);
  });

  it("every truncation of valid messages either decodes or throws DecodeError, most of them DecodeError", () => {
    const cuts: [CompiledCodec, Uint8Array][] = [];
    for (const [codec, records] of [
      [paper, generateSamples(paper.layout, 20, 5)],
      [everyType, everyTypeExtremes],
      [options, optionsExtremes],
    ] as const) {
      for (const r of records) {
        const bytes = codec.encode(r);
        for (let n = 0; n < bytes.length; n++) cuts.push([codec, bytes.subarray(0, n)]);
      }
    }
    // a cut at a field boundary is a shorter valid message (proto3 fields are optional on the wire);
    // a cut inside a field must be refused
    const t = { inputs: 0, rejected: 0 };
    for (const [codec, cut] of cuts) {
      const one = tallyRejections(codec, [cut]);
      t.inputs += one.inputs;
      t.rejected += one.rejected;
    }
    // 96.6 % rejected when the floor was set
    expectRejectedAtLeast(t, 0.93, "protobuf truncations");
  });

  it("random bytes and random mutations never throw anything but DecodeError, and are mostly rejected", () => {
    const seeds = [
      paper.encode(paperRecord),
      everyType.encode(everyTypeExtremes[1]!),
      options.encode(optionsExtremes[0]!),
    ];
    const codecs = [paper, everyType, options];
    const t = { inputs: 0, rejected: 0 };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 }),
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        (which, noise, flips) => {
          const codec = codecs[which]!;
          const mutated = Uint8Array.from(seeds[which]!);
          for (const [at, value] of flips) if (mutated.length) mutated[at % mutated.length] = value;
          for (const input of [noise, mutated]) {
            t.inputs++;
            const rec = decodeUnlessRejected(codec, input);
            if (rec === undefined) t.rejected++;
            // whatever decodes is a valid record: it encodes again without error
            else codec.encode(rec);
          }
        },
      ),
      { seed: 20260601, numRuns: 3000 },
    );
    // 88.3 % rejected when the floor was set
    expectRejectedAtLeast(t, 0.85, "protobuf random bytes and mutations");
  });

  it("rejects non-bytes input", () => {
    expect(() => paper.decode("0a00" as never)).toThrow(DecodeError);
  });
});

describe("protobuf: spans", () => {
  function checkCoverage(bytes: Uint8Array, spans: { start: number; end: number }[]) {
    let at = 0;
    for (const s of spans) {
      expect(s.start).toBe(at);
      expect(s.end).toBeGreaterThan(s.start);
      at = s.end;
    }
    expect(at).toBe(bytes.length);
  }

  it("labels tags as key, lengths as length and payloads as value, by field id path", () => {
    const { bytes, spans } = paper.encodeWithSpans(paperRecord);
    expect(hex(bytes)).toBe(hex(paper.encode(paperRecord)));
    checkCoverage(bytes, spans);
    expect(spans.slice(0, 3)).toEqual([
      { start: 0, end: 1, field: "msisdn", role: "key" },
      { start: 1, end: 2, field: "msisdn", role: "length" },
      { start: 2, end: 14, field: "msisdn", role: "value" },
    ]);
    // the expanded array's three scalar fields all belong to "acc"; two-byte tags from field 16 on
    const acc = spans.filter((s) => s.field === "acc");
    expect(acc.map((s) => [s.role, s.end - s.start])).toEqual([
      ["key", 1],
      ["value", 4],
      ["key", 1],
      ["value", 4],
      ["key", 1],
      ["value", 4],
    ]);
    expect(spans.filter((s) => s.field === "hdop")).toEqual([
      { start: bytes.length - 6, end: bytes.length - 4, field: "hdop", role: "key" },
      { start: bytes.length - 4, end: bytes.length, field: "hdop", role: "value" },
    ]);
    expect(spans.some((s) => s.field === "ble-m" || s.field === "speed")).toBe(false);
  });

  it("attributes nested fields by path and leaves no gaps for empty values and packed arrays", () => {
    for (const rec of [...everyTypeExtremes, ...generateSamples(everyType.layout, 50, 2)]) {
      const { bytes, spans } = everyType.encodeWithSpans(rec);
      checkCoverage(bytes, spans);
    }
    const { spans } = everyType.encodeWithSpans(everyTypeExtremes[2]!);
    expect(spans.filter((s) => s.field.startsWith("f-group")).map((s) => `${s.field}:${s.role}`)).toEqual([
      "f-group:key",
      "f-group:length",
      "f-group/g-sats:key",
      "f-group/g-sats:value",
    ]);
    expect(spans.filter((s) => s.field === "f-arrfix").map((s) => s.role)).toEqual(["key", "length", "value"]);
    // optional msg present: key, length, value; empty optional string (record 2) has no value span
    const { spans: s1 } = everyType.encodeWithSpans(everyTypeExtremes[1]!);
    expect(s1.filter((s) => s.field === "f-opt-str").map((s) => s.role)).toEqual(["key", "length"]);
  });
});

describe("protobuf: schema handling", () => {
  afterEach(() => vi.restoreAllMocks());

  it("never generates code at run time (works under a CSP without unsafe-eval)", () => {
    const spy = vi.spyOn(protobuf.util, "codegen");
    const codec = protobufCodec.compile(parseLayout(protobufOptionsLayout));
    for (const r of optionsExtremes) codec.decode(codec.encodeWithSpans(r).bytes);
    expect(spy).not.toHaveBeenCalled();
  });

  it("rejects layouts protobuf cannot express with LayoutError", () => {
    const base = { format: "satlayout", version: 1, name: "x" } as const;
    const int = { kind: "int", bits: 8, signed: false } as const;
    const bad: [LayoutInput, RegExp][] = [
      [
        {
          ...base,
          fields: [
            { id: "a", key: "a-b", name: "a", type: int },
            { id: "b", key: "a_b", name: "b", type: int },
          ],
        },
        /protobuf field name "a_b" twice/,
      ],
      [
        {
          ...base,
          fields: [
            { id: "a", key: "ab_c", name: "a", type: int },
            { id: "b", key: "abC", name: "b", type: int },
          ],
        },
        /same JSON name/,
      ],
      [
        {
          ...base,
          protobufReserved: [2],
          fields: [
            {
              id: "a",
              key: "v",
              name: "v",
              type: { kind: "array", of: int, maxCount: 2, fixed: true },
              options: { protobuf: { number: 1, expand: ["x", "y"] } },
            },
          ],
        },
        /uses reserved number 2/,
      ],
      [
        {
          ...base,
          fields: [
            {
              id: "a",
              key: "a",
              name: "a",
              type: { kind: "int", bits: 64, signed: false },
              options: { protobuf: { intEncoding: "zigzag" } },
            },
          ],
        },
        /zigzag cannot carry/,
      ],
    ];
    // the shape only: the codec must refuse these itself, whatever validation caught before it
    // (parseLayout now refuses the reserved number an expanded element takes)
    for (const [input, message] of bad) {
      expect(() => protobufCodec.compile(parseLayoutShape(input))).toThrow(LayoutError);
      expect(() => protobufCodec.compile(parseLayoutShape(input))).toThrow(message);
    }
  });

  it("assigns numbers itself when a layout skipped parseLayout's numbering", () => {
    const layout = parseLayout(textRepLayout);
    const stripped = { ...layout, fields: layout.fields.map((f) => ({ ...f, options: undefined })) };
    const codec = protobufCodec.compile(stripped);
    const [s] = generateSamples(layout, 1, 1);
    expect(hex(codec.encode(s!))).toBe(hex(compile(textRepLayout).encode(s!)));
  });
});
