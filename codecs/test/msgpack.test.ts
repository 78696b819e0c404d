import { readFileSync } from "node:fs";
import path from "node:path";
import { Encoder } from "@msgpack/msgpack";
import { describe, expect, test } from "vitest";
import { DecodeError, EncodeError } from "../src/errors.ts";
import { everyTypeLayout, textRepLayout } from "./fixtures/layouts.ts";
import { sensor, sensorRecord } from "./fixtures/sensor.ts";
import { expectOnlyDecodeErrors, expectRoundTripWithTiledSpans } from "./helpers/codecChecks.ts";
import { repoRoot } from "./helpers/python.ts";
import { MSGPACK_OPTIONS, msgpackCodec } from "../src/formats/msgpack.ts";
import type { Field } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { PlainRecord, PlainValue, TypedRecord } from "../src/layout/values.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { toPlain } from "../src/text/plain.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const unhex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ""), "hex"));
const oneField = (type: object) =>
  parseLayout({
    format: "satlayout",
    version: 1,
    name: "one",
    fields: [{ id: "v", key: "v", name: "v", presence: "required", type }],
  });
function valueHex(codec: ReturnType<typeof msgpackCodec.compile>, v: TypedRecord[string]): string {
  const { bytes, spans } = codec.encodeWithSpans({ v });
  const s = spans.find((x) => x.role === "value")!;
  return hex(bytes.subarray(s.start, s.end));
}

describe("MessagePack bytes equal Python msgpack.packb", () => {
  test("a record with every value kind (reference: msgpack.packb, float32 fields packed with use_single_float)", () => {
    expect(hex(msgpackCodec.compile(sensor).encode(sensorRecord))).toBe(
      "8ba46e616d65a968c3a920f09f9aa20aa5636f756e742aa474656d70ca4189d70aa5726174696fcb3fb999999999999aa26f6bc3a3626967d38000000000000000a3726177c403010203a476616c7394ca3fc00000ca80000000ca7fc00000ca7f800000a3706f7381a36c6174cb4045d9999999999aa46d6f646501a174a62d30352e3530",
    );
  });

  test("integers take the shortest form, 64-bit values included", () => {
    const u = msgpackCodec.compile(oneField({ kind: "int", bits: 64, signed: false }));
    const cases: [bigint, string][] = [
      [0n, "00"],
      [127n, "7f"],
      [128n, "cc80"],
      [255n, "ccff"],
      [256n, "cd0100"],
      [65535n, "cdffff"],
      [65536n, "ce00010000"],
      [4294967295n, "ceffffffff"],
      [4294967296n, "cf0000000100000000"],
      [18446744073709551615n, "cfffffffffffffffff"],
    ];
    for (const [v, h] of cases) expect(valueHex(u, v), String(v)).toBe(h);
    const i = msgpackCodec.compile(oneField({ kind: "int", bits: 64, signed: true }));
    const signed: [bigint, string][] = [
      [5n, "05"],
      [-1n, "ff"],
      [-32n, "e0"],
      [-33n, "d0df"],
      [-128n, "d080"],
      [-129n, "d1ff7f"],
      [-32768n, "d18000"],
      [-32769n, "d2ffff7fff"],
      [-2147483648n, "d280000000"],
      [-2147483649n, "d3ffffffff7fffffff"],
      [-9223372036854775808n, "d38000000000000000"],
      [9223372036854775807n, "cf7fffffffffffffff"],
    ];
    for (const [v, h] of signed) expect(valueHex(i, v), String(v)).toBe(h);
  });

  test("float fields keep their width even for whole values; epoch timestamps are ints when whole", () => {
    const f32 = msgpackCodec.compile(oneField({ kind: "float", bits: 32 }));
    expect(valueHex(f32, 20)).toBe("ca41a00000");
    expect(valueHex(f32, -0)).toBe("ca80000000");
    expect(valueHex(f32, Number.NaN)).toBe("ca7fc00000");
    const f64 = msgpackCodec.compile(oneField({ kind: "float", bits: 64 }));
    expect(valueHex(f64, 20)).toBe("cb4034000000000000");
    expect(valueHex(f64, -0)).toBe("cb8000000000000000");
    expect(valueHex(f64, Number.NaN)).toBe("cb7ff8000000000000");
    expect(valueHex(f64, Number.POSITIVE_INFINITY)).toBe("cb7ff0000000000000");
    const ts = msgpackCodec.compile(oneField({ kind: "timestamp", encoding: "epoch", resolution: 0.5 }));
    expect(valueHex(ts, 1767225600)).toBe("ce6955b900");
    expect(valueHex(ts, 4294967296)).toBe("cf0000000100000000");
    expect(valueHex(ts, 1767225600.5)).toBe("cb41da556e40200000");
  });

  test("str and bin lengths: fixstr to 31, str8 from 32, str16 from 256; bin8/bin16", () => {
    const s = msgpackCodec.compile(oneField({ kind: "string", maxLength: 300 }));
    expect(valueHex(s, "")).toBe("a0");
    expect(valueHex(s, "a".repeat(31))).toBe(`bf${"61".repeat(31)}`);
    expect(valueHex(s, "a".repeat(32))).toBe(`d920${"61".repeat(32)}`);
    expect(valueHex(s, "é".repeat(128))).toBe(`da0100${"c3a9".repeat(128)}`);
    const b = msgpackCodec.compile(oneField({ kind: "bytes", maxLength: 300 }));
    expect(valueHex(b, new Uint8Array(0))).toBe("c400");
    expect(valueHex(b, new Uint8Array(255))).toBe(`c4ff${"00".repeat(255)}`);
    expect(valueHex(b, new Uint8Array(256))).toBe(`c50100${"00".repeat(256)}`);
    const a = msgpackCodec.compile(
      oneField({ kind: "array", of: { kind: "int", bits: 8, signed: false }, maxCount: 20 }),
    );
    expect(valueHex(a, [])).toBe("90");
    expect(
      valueHex(
        a,
        Array.from({ length: 16 }, () => 1),
      ),
    ).toBe(`dc0010${"01".repeat(16)}`);
  });
});

describe("MessagePack pieces are @msgpack/msgpack's own output", () => {
  const lib = new Encoder(MSGPACK_OPTIONS);

  test.each([
    ["paper preset", paperPreset],
    ["text representations", textRepLayout],
  ] as const)("%s: the piecewise record equals the library's one-shot encoding of toPlain()", (_n, input) => {
    const layout = parseLayout(input);
    const codec = msgpackCodec.compile(layout);
    for (const rec of generateSamples(layout, 300, 2)) {
      const { bytes, spans } = codec.encodeWithSpans(rec);
      expect(hex(Uint8Array.from(spans.flatMap((s) => [...bytes.subarray(s.start, s.end)])))).toBe(
        hex(lib.encode(toPlain(layout, rec, "binary"))),
      );
    }
  });

  test("every type: each key and each value span outside floats and 64-bit integers is the library's encoding of that piece", () => {
    const layout = parseLayout(everyTypeLayout);
    const codec = msgpackCodec.compile(layout);
    const byId = new Map<string, Field>();
    const index = (fields: Field[]) =>
      fields.forEach((f) => (byId.set(f.id, f), f.type.kind === "group" && index(f.type.fields)));
    index(layout.fields);
    const libraryWrites = (f: Field) => {
      const t = f.type.kind === "array" ? f.type.of : f.type;
      return !(
        t.kind === "float" ||
        t.kind === "fixed" ||
        (t.kind === "timestamp" && t.encoding === "epoch") ||
        (t.kind === "int" && t.bits === 64) ||
        t.kind === "group"
      );
    };
    let checked = 0;
    for (const rec of generateSamples(layout, 200, 4)) {
      const plain = toPlain(layout, rec, "binary");
      const { bytes, spans } = codec.encodeWithSpans(rec);
      for (const s of spans) {
        const ids = s.field.split("/");
        const f = byId.get(ids[ids.length - 1]!);
        if (!f) continue;
        const piece = hex(bytes.subarray(s.start, s.end));
        if (s.role === "key") expect(piece).toBe(hex(lib.encode(f.key)));
        else if (s.role === "value" && libraryWrites(f)) {
          const value = ids.reduce<PlainValue>((v, id) => (v as PlainRecord)[byId.get(id)!.key]!, plain);
          expect(piece).toBe(hex(lib.encode(value)));
        } else continue;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200 * 30);
  });
});

describe("MessagePack round trip and spans", () => {
  test.each([
    ["paper preset", paperPreset],
    ["every type", everyTypeLayout],
    ["text representations", textRepLayout],
  ] as const)("%s, 500 samples; spans tile the bytes", (_n, input) => {
    expectRoundTripWithTiledSpans(msgpackCodec, parseLayout(input), 500, 7);
  });

  test("map header is framing, keys are keys, nested map header belongs to the group", () => {
    const { spans } = msgpackCodec.compile(sensor).encodeWithSpans(sensorRecord);
    expect(spans.slice(0, 3)).toEqual([
      { start: 0, end: 1, field: "", role: "framing" },
      { start: 1, end: 6, field: "name", role: "key" },
      { start: 6, end: 16, field: "name", role: "value" },
    ]);
    const pos = spans.filter((s) => s.field.startsWith("pos"));
    expect(pos.map((s) => [s.field, s.role, s.end - s.start])).toEqual([
      ["pos", "key", 4],
      ["pos", "framing", 1],
      ["pos/lat", "key", 4],
      ["pos/lat", "value", 9],
    ]);
  });

  test("extremes: empty/long/unicode strings, empty arrays, integer limits, -0.0, NaN, ±Infinity", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "x",
      fields: [
        { id: "s", key: "s", name: "s", presence: "required", type: { kind: "string", maxLength: 300 } },
        { id: "i", key: "i", name: "i", presence: "required", type: { kind: "int", bits: 64, signed: true } },
        { id: "u", key: "u", name: "u", presence: "required", type: { kind: "int", bits: 64, signed: false } },
        { id: "f", key: "f", name: "f", presence: "required", type: { kind: "float", bits: 32 } },
        { id: "d", key: "d", name: "d", presence: "required", type: { kind: "float", bits: 64 } },
        {
          id: "a",
          key: "a",
          name: "a",
          presence: "required",
          type: { kind: "array", of: { kind: "int", bits: 8, signed: true }, maxCount: 40 },
        },
        { id: "b", key: "b", name: "b", presence: "optional", type: { kind: "bytes", maxLength: 300 } },
      ],
    });
    const codec = msgpackCodec.compile(layout);
    const records: TypedRecord[] = [
      { s: "", i: -(2n ** 63n), u: 2n ** 64n - 1n, f: -0, d: -0, a: [], b: new Uint8Array(0) },
      {
        s: "🚢".repeat(75),
        i: 2n ** 63n - 1n,
        u: 0n,
        f: Number.NaN,
        d: Number.NaN,
        a: Array.from({ length: 40 }, (_, k) => k - 20),
      },
      {
        s: "\u0000\u2028",
        i: 0n,
        u: 9007199254740993n,
        f: Number.POSITIVE_INFINITY,
        d: Number.NEGATIVE_INFINITY,
        a: [-128, 127],
        b: new Uint8Array(300).fill(7),
      },
    ];
    for (const rec of records) {
      const back = codec.decode(codec.encode(rec));
      expect(back).toEqual(rec);
      expect([Object.is(back.f, rec.f), Object.is(back.d, rec.d)]).toEqual([true, true]);
    }
  });
});

describe("MessagePack decode is strict and throws only DecodeError", () => {
  const layout = parseLayout({
    format: "satlayout",
    version: 1,
    name: "a",
    fields: [
      { id: "a", key: "a", name: "a", presence: "optional", type: { kind: "int", bits: 8, signed: false } },
      { id: "s", key: "s", name: "s", presence: "optional", type: { kind: "string", maxLength: 8 } },
    ],
  });
  const codec = msgpackCodec.compile(layout);
  const offsetOf = (h: string): number | undefined => {
    try {
      codec.decode(unhex(h));
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError);
      expect((e as DecodeError).format).toBe("msgpack");
      return (e as DecodeError).offset ?? -1;
    }
    throw new Error(`accepted ${h}`);
  };

  test.each([
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
  ])("%s → offset %i (%s)", (h, offset) => {
    expect(offsetOf(h)).toBe(offset);
  });

  test("every truncation and 2 000 byte mutations of valid documents give a record or a DecodeError", () => {
    // 65.4 % of the mutated documents were rejected when the floor was set
    expectOnlyDecodeErrors(msgpackCodec, parseLayout(everyTypeLayout), {
      records: 4,
      mutationsPerRecord: 500,
      seed: 7,
      rejectsAtLeast: 0.6,
    });
  });
});

describe("MessagePack encode errors and info", () => {
  test("a lone surrogate is an EncodeError with the path", () => {
    expect(() => msgpackCodec.compile(sensor).encode({ ...sensorRecord, name: "x\ud800" })).toThrow(EncodeError);
    expect(() => msgpackCodec.compile(sensor).encode({ ...sensorRecord, name: "x\ud800" })).toThrow(
      /name: string holds a lone surrogate/,
    );
  });

  test("implementation names the installed @msgpack/msgpack version", () => {
    const version = (
      JSON.parse(readFileSync(path.join(repoRoot, "node_modules/@msgpack/msgpack/package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    expect(msgpackCodec.info.implementation).toContain(`@msgpack/msgpack ${version}`);
    expect(msgpackCodec.info).toMatchObject({
      id: "msgpack",
      label: "MessagePack",
      selfDescribing: true,
      compressed: false,
      lossy: false,
    });
  });
});
