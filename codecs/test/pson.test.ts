// PSON's own wire details: the seed paper's examples, Table 1's header rules, the map header's
// inline and varint counts, the canonical forms the strict reader accepts. What every format must do
// (round trip, error mapping, extremes, strict-decode offsets) is a row of conformance/table.ts.
import { describe, expect, test } from "vitest";
import { decodeTarget } from "./conformance/layouts.ts";
import { psonCodec } from "../src/formats/pson/codec.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { toFloat32 } from "../src/text/numbers.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const unhex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ""), "hex"));
const ascii = (s: string) => Buffer.from(s, "latin1").toString("hex");
const oneField = (type: object) =>
  parseLayout({
    format: "satlayout",
    version: 1,
    name: "one",
    fields: [{ id: "v", key: "v", name: "v", presence: "required", type }],
  });
function valueHex(codec: ReturnType<typeof psonCodec.compile>, v: TypedRecord[string]): string {
  const { bytes, spans } = codec.encodeWithSpans({ v });
  const s = spans.find((x) => x.role === "value")!;
  return hex(bytes.subarray(s.start, s.end));
}

describe("PSON examples from the seed paper (Sensors 2021, §3)", () => {
  test('{"compact": true} → C1 87 "compact" 61', () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "f",
      fields: [{ id: "c", key: "compact", name: "c", presence: "required", type: { kind: "bool" } }],
    });
    expect(hex(psonCodec.compile(layout).encode({ compact: true }))).toBe(`c187${ascii("compact")}61`);
  });

  test('Figure 2\'s two-key map: header C2, then each key as a string (0x87 "compact"), then its value', () => {
    // the text walks C2, 87 "compact", 61 and says the second pair follows the same rules; the second
    // pair {"schema": 0} is the msgpack.org example Figure 2 compares against (an inference)
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "f",
      fields: [
        { id: "c", key: "compact", name: "c", presence: "required", type: { kind: "bool" } },
        { id: "s", key: "schema", name: "s", presence: "required", type: { kind: "int", bits: 8, signed: false } },
      ],
    });
    const codec = psonCodec.compile(layout);
    const bytes = codec.encode({ compact: true, schema: 0 });
    expect(hex(bytes)).toBe(`c287${ascii("compact")}6186${ascii("schema")}00`);
    expect(codec.decode(bytes)).toEqual({ compact: true, schema: 0 });
  });
});

describe("PSON header rules (Table 1)", () => {
  test("unsigned: 0–30 in the header, 31 and up as 0x1F plus an LEB128 varint", () => {
    const u = psonCodec.compile(oneField({ kind: "int", bits: 64, signed: false }));
    const cases: [bigint, string][] = [
      [0n, "00"],
      [1n, "01"],
      [30n, "1e"],
      [31n, "1f1f"],
      [127n, "1f7f"],
      [128n, "1f8001"],
      [300n, "1fac02"],
      [18446744073709551615n, "1fffffffffffffffffff01"],
    ];
    for (const [v, h] of cases) expect(valueHex(u, v), String(v)).toBe(h);
  });

  test("signed: a negative number is the signed type with its magnitude", () => {
    const i = psonCodec.compile(oneField({ kind: "int", bits: 64, signed: true }));
    const cases: [bigint, string][] = [
      [5n, "05"],
      [0n, "00"],
      [-1n, "21"],
      [-30n, "3e"],
      [-31n, "3f1f"],
      [-300n, "3fac02"],
      [-9223372036854775808n, "3f80808080808080808001"],
      [9223372036854775807n, "1fffffffffffffffff7f"],
    ];
    for (const [v, h] of cases) expect(valueHex(i, v), String(v)).toBe(h);
    const small = psonCodec.compile(oneField({ kind: "int", bits: 8, signed: true }));
    expect(valueHex(small, -128)).toBe("3f8001");
  });

  test("floats: payload 0 float32, payload 1 float64, little-endian", () => {
    const f32 = psonCodec.compile(oneField({ kind: "float", bits: 32 }));
    expect(valueHex(f32, toFloat32(17.23))).toBe("400ad78941");
    expect(valueHex(f32, 20)).toBe("400000a041");
    expect(valueHex(f32, -0)).toBe("4000000080");
    expect(valueHex(f32, Number.NaN)).toBe("400000c07f");
    const f64 = psonCodec.compile(oneField({ kind: "float", bits: 64 }));
    expect(valueHex(f64, 0.1)).toBe("419a9999999999b93f");
    expect(valueHex(f64, Number.NEGATIVE_INFINITY)).toBe("41000000000000f0ff");
    const ts = psonCodec.compile(oneField({ kind: "timestamp", encoding: "epoch", resolution: 0.5 }));
    expect(valueHex(ts, 1767225600)).toBe("1f80f2d6ca06");
    expect(valueHex(ts, 1767225600.5)).toBe("41000020406e55da41");
  });

  test("discrete, string, bytes and array headers", () => {
    expect(valueHex(psonCodec.compile(oneField({ kind: "bool" })), false)).toBe("60");
    expect(valueHex(psonCodec.compile(oneField({ kind: "bool" })), true)).toBe("61");
    const s = psonCodec.compile(oneField({ kind: "string", maxLength: 300 }));
    expect(valueHex(s, "")).toBe("80");
    expect(valueHex(s, "a".repeat(30))).toBe(`9e${"61".repeat(30)}`);
    expect(valueHex(s, "a".repeat(31))).toBe(`9f1f${"61".repeat(31)}`);
    expect(valueHex(s, "é".repeat(128))).toBe(`9f8002${"c3a9".repeat(128)}`);
    const b = psonCodec.compile(oneField({ kind: "bytes", maxLength: 40 }));
    expect(valueHex(b, new Uint8Array(0))).toBe("a0");
    expect(valueHex(b, new Uint8Array(30))).toBe(`be${"00".repeat(30)}`);
    expect(valueHex(b, new Uint8Array(31))).toBe(`bf1f${"00".repeat(31)}`);
    const a = psonCodec.compile(oneField({ kind: "array", of: { kind: "int", bits: 8, signed: true }, maxCount: 40 }));
    expect(valueHex(a, [])).toBe("e0");
    expect(valueHex(a, [1, -1])).toBe("e20121");
    expect(
      valueHex(
        a,
        Array.from({ length: 31 }, () => 2),
      ),
    ).toBe(`ff1f${"02".repeat(31)}`);
  });

  test("a whole record: nested group map, enum value, text representation, float32 array", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "Sensor",
      fields: [
        { id: "name", key: "name", name: "name", presence: "required", type: { kind: "string", maxLength: 32 } },
        {
          id: "count",
          key: "count",
          name: "count",
          presence: "required",
          type: { kind: "int", bits: 16, signed: false },
        },
        { id: "temp", key: "temp", name: "temp", presence: "required", type: { kind: "float", bits: 32 } },
        { id: "ratio", key: "ratio", name: "ratio", presence: "required", type: { kind: "float", bits: 64 } },
        { id: "ok", key: "ok", name: "ok", presence: "required", type: { kind: "bool" } },
        { id: "big", key: "big", name: "big", presence: "required", type: { kind: "int", bits: 64, signed: true } },
        { id: "raw", key: "raw", name: "raw", presence: "required", type: { kind: "bytes", maxLength: 8 } },
        {
          id: "vals",
          key: "vals",
          name: "vals",
          presence: "required",
          type: { kind: "array", of: { kind: "float", bits: 32 }, maxCount: 4 },
        },
        {
          id: "pos",
          key: "pos",
          name: "pos",
          presence: "required",
          type: {
            kind: "group",
            fields: [
              { id: "lat", key: "lat", name: "lat", presence: "required", type: { kind: "float", bits: 64 } },
              { id: "n", key: "n", name: "n", presence: "optional", type: { kind: "int", bits: 8, signed: false } },
            ],
          },
        },
        {
          id: "mode",
          key: "mode",
          name: "mode",
          presence: "required",
          type: {
            kind: "enum",
            values: [
              { name: "IDLE", value: 0 },
              { name: "MOVING", value: 1 },
            ],
          },
        },
        {
          id: "t",
          key: "t",
          name: "t",
          presence: "required",
          type: { kind: "float", bits: 32 },
          text: { as: "string", decimals: 2, pad: 2 },
        },
      ],
    });
    const rec: TypedRecord = {
      name: "hé 🚢\n",
      count: 42,
      temp: toFloat32(17.23),
      ratio: 0.1,
      ok: true,
      big: -9223372036854775808n,
      raw: Uint8Array.from([1, 2, 3]),
      vals: [1.5, -0, Number.NaN, Number.POSITIVE_INFINITY],
      pos: { lat: 43.7 },
      mode: "MOVING",
      t: -5.5,
    };
    const codec = psonCodec.compile(layout);
    const { bytes, spans } = codec.encodeWithSpans(rec);
    expect(hex(bytes)).toBe(
      "cb846e616d658968c3a920f09f9aa20a85636f756e741f2a8474656d70400ad7894185726174696f419a9999999999b93f826f6b61836269673f8080808080808080800183726177a30102038476616c73e4400000c03f4000000080400000c07f400000807f83706f73c1836c6174419a99999999d94540846d6f6465018174862d30352e3530",
    );
    expect(spans.slice(0, 3)).toEqual([
      { start: 0, end: 1, field: "", role: "framing" },
      { start: 1, end: 6, field: "name", role: "key" },
      { start: 6, end: 16, field: "name", role: "value" },
    ]);
    expect(spans.filter((s) => s.field.startsWith("pos")).map((s) => [s.field, s.role, s.end - s.start])).toEqual([
      ["pos", "key", 4],
      ["pos", "framing", 1],
      ["pos/lat", "key", 4],
      ["pos/lat", "value", 9],
    ]);
    const back = codec.decode(bytes);
    expect(back).toEqual(rec);
    expect(Object.is((back.vals as number[])[1], -0)).toBe(true);
  });
});

describe("PSON map headers", () => {
  test("the paper record's 20 entries fit the map header inline (0xD4); 31 entries need the varint count", () => {
    const paper = parseLayout(paperPreset);
    for (const rec of generateSamples(paper, 20, 1)) expect(psonCodec.compile(paper).encode(rec)[0]).toBe(0xd4);
    const wide = parseLayout({
      format: "satlayout",
      version: 1,
      name: "w",
      fields: Array.from({ length: 31 }, (_, k) => ({
        id: `f${k}`,
        key: `f${k}`,
        name: `f${k}`,
        presence: "required" as const,
        type: { kind: "bool" as const },
      })),
    });
    const bytes = psonCodec
      .compile(wide)
      .encode(Object.fromEntries(Array.from({ length: 31 }, (_, k) => [`f${k}`, true])));
    expect(hex(bytes.subarray(0, 2))).toBe("df1f");
    expect(bytes.length).toBe(2 + 10 * (3 + 1) + 21 * (4 + 1));
  });
});

describe("PSON strict reader", () => {
  const codec = psonCodec.compile(decodeTarget({ kind: "int", bits: 64, signed: true }));

  test("accepts the canonical forms it writes", () => {
    expect(codec.decode(unhex("c2816101817382c3a9"))).toEqual({ a: 1n, s: "é" });
    expect(codec.decode(unhex("c181613f80808080808080808001"))).toEqual({ a: -(2n ** 63n) });
    // null (0x62) reads as an absent optional field, as fromPlain treats null in every format
    expect(codec.decode(unhex("c1816162"))).toEqual({});
  });
});
