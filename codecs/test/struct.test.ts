// Struct: exact bytes of hand-checked records in every string mode and byte order, the paper's
// 116-byte stream, round trips, extremes, malformed input and spans.
import { describe, expect, test } from "vitest";
import { DecodeError, EncodeError, LayoutError } from "../src/errors.ts";
import { everyTypeLayout, textRepLayout } from "./fixtures/layouts.ts";
import { PAPER_EXAMPLE } from "./fixtures/paperExample.ts";
import { expectRejectedAtLeast, tallyRejections } from "./helpers/codecChecks.ts";
import { compileStruct, structCodec } from "../src/formats/struct/codec.ts";
import type { CompiledCodec, Span } from "../src/formats/types.ts";
import type { Field, LayoutInput, StructStringMode } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";
import { PRESETS } from "../src/presets/index.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { toFloat32 } from "../src/text/numbers.ts";
import { formatTimestamp, parseTimestamp } from "../src/text/timestamp.ts";

type FieldIn = Omit<Field, "presence"> & { presence?: "required" | "optional" };

function layoutOf(
  fields: FieldIn[],
  struct?: { endianness?: "big" | "little"; stringMode?: StructStringMode },
): LayoutInput {
  return {
    format: "satlayout",
    version: 1,
    name: "t",
    struct: { endianness: struct?.endianness ?? "big", stringMode: struct?.stringMode ?? "u16-appended" },
    fields: fields.map((f) => ({ presence: "required", ...f })) as LayoutInput["fields"],
  };
}
const compile = (input: LayoutInput) => structCodec.compile(parseLayout(input));
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const unhex = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ""), "hex"));
const f = (id: string, type: Field["type"], extra: Partial<FieldIn> = {}): FieldIn => ({
  id,
  key: id,
  name: id,
  type,
  ...extra,
});

// Python: struct.pack('>HHHBHBBffffffHBfffffBf', 12, 11, 15, 28, 14, 0, 92, -993.1234, -27.0, -52.0,
// 17.0, 71.0, 1012.4, 1, 1, 31.86, 28.74, 49.5, 12.3, 271.5, 6, 1.8) + the five strings' bytes
const PAPER_EXAMPLE_HEX =
  "000c000b000f1c000e005cc47847e6c1d80000c250000041880000428e0000447d199a00010141fee14841e5eb85424600004144cccd4387c000063fe66666" +
  "3339333630303530343837334c4d435530313233343536303130363235203131343531322e333939392d30312d312d333144343144";

describe("the paper's record", () => {
  const paper = parseLayout(paperPreset);
  const codec = structCodec.compile(paper);

  test("the example record packs exactly as the paper's Python client does (63 fixed + 53 string bytes)", () => {
    const bytes = codec.encode(PAPER_EXAMPLE);
    expect(hex(bytes)).toBe(PAPER_EXAMPLE_HEX);
    expect(bytes.length).toBe(116);
    expect(codec.decode(bytes)).toStrictEqual(PAPER_EXAMPLE);
  });

  test("every sample is 116 bytes and round-trips", () => {
    for (const rec of generateSamples(paper, 1000, 1)) {
      const bytes = codec.encode(rec);
      expect(bytes.length).toBe(116);
      expect(codec.decode(bytes)).toStrictEqual(rec);
    }
  });

  test("pack arguments name the paper's format string", () => {
    const args = compileStruct(paper).packArgs(PAPER_EXAMPLE);
    expect(args.format).toBe(">HHHBHBBffffffHBfffffBf12s11s15s14s1s");
    expect(args.values).toHaveLength(27);
  });

  test("spans: lengths in place, appended bytes attributed to their field, every byte covered", () => {
    const { bytes, spans } = codec.encodeWithSpans(PAPER_EXAMPLE);
    expect(hex(bytes)).toBe(PAPER_EXAMPLE_HEX);
    checkCover(spans, bytes.length);
    expect(spans.slice(0, 4)).toEqual([
      { start: 0, end: 2, field: "msisdn", role: "length" },
      { start: 2, end: 4, field: "iso6346", role: "length" },
      { start: 4, end: 6, field: "time", role: "length" },
      { start: 6, end: 7, field: "rssi", role: "value" },
    ]);
    expect(spans.find((s) => s.field === "acc")).toEqual({ start: 11, end: 23, field: "acc", role: "value" });
    expect(spans.slice(-5)).toEqual([
      { start: 63, end: 75, field: "msisdn", role: "value" },
      { start: 75, end: 86, field: "iso6346", role: "value" },
      { start: 86, end: 101, field: "time", role: "value" },
      { start: 101, end: 115, field: "cgi", role: "value" },
      { start: 115, end: 116, field: "door", role: "value" },
    ]);
  });
});

function checkCover(spans: Span[], length: number): void {
  let at = 0;
  for (const s of spans) {
    expect(s.start).toBe(at);
    expect(s.end).toBeGreaterThan(s.start);
    at = s.end;
  }
  expect(at).toBe(length);
}

describe("string modes and byte order", () => {
  const fields = [
    f("a", { kind: "int", bits: 16, signed: false }),
    f("s", { kind: "string", maxLength: 6, fixed: false, charset: "utf8" }),
    f("b", { kind: "bytes", maxLength: 4, fixed: false }),
    f("i", { kind: "int", bits: 8, signed: true }),
  ];
  const rec: TypedRecord = { a: 0x1234, s: "hé", b: Uint8Array.of(0xde, 0xad), i: -2 };
  const cases: [StructStringMode, "big" | "little", string][] = [
    ["u16-appended", "big", "1234 0003 0002 fe 68c3a9 dead"],
    ["u16-appended", "little", "3412 0300 0200 fe 68c3a9 dead"],
    ["u8-appended", "big", "1234 03 02 fe 68c3a9 dead"],
    ["u16-inline", "big", "1234 0003 68c3a9 0002 dead fe"],
    ["u16-inline", "little", "3412 0300 68c3a9 0200 dead fe"],
    ["u8-inline", "little", "3412 03 68c3a9 02 dead fe"],
  ];
  test.each(cases)("%s, %s endian", (mode, endianness, expected) => {
    const codec = compile(layoutOf(fields, { endianness, stringMode: mode }));
    const bytes = codec.encode(rec);
    expect(hex(bytes)).toBe(expected.replace(/ /g, ""));
    expect(codec.decode(bytes)).toStrictEqual(rec);
    const { spans } = codec.encodeWithSpans(rec);
    checkCover(spans, bytes.length);
    expect(spans.filter((s) => s.role === "length").map((s) => s.field)).toEqual(["s", "b"]);
  });

  test("fixed mode: NUL-padded strings, bytes of exactly maxLength", () => {
    const codec = compile(layoutOf(fields, { stringMode: "fixed" }));
    const r = { ...rec, b: Uint8Array.of(0xde, 0xad, 0xbe, 0xef) };
    const bytes = codec.encode(r);
    expect(hex(bytes)).toBe("1234" + "68c3a9000000" + "deadbeef" + "fe");
    expect(codec.decode(bytes)).toStrictEqual(r);
    expect(codec.encodeWithSpans(r).spans.filter((s) => s.field === "s")).toEqual([
      { start: 2, end: 5, field: "s", role: "value" },
      { start: 5, end: 8, field: "s", role: "framing" },
    ]);
    expect(() => codec.encode(rec)).toThrow(/exactly 4 bytes/);
    expect(() => codec.encode({ ...r, s: "a\0b" })).toThrow(EncodeError);
    // non-NUL after the terminating NUL is not something the encoder writes
    expect(() => codec.decode(unhex("1234 680041000000 deadbeef fe"))).toThrow(DecodeError);
  });

  test("a field's own string mode overrides the layout's; fixed strings are always fixed", () => {
    const codec = compile(
      layoutOf([
        f(
          "p",
          { kind: "string", maxLength: 3, fixed: false, charset: "utf8" },
          { options: { struct: { stringMode: "u8-inline" } } },
        ),
        f("q", { kind: "string", maxLength: 3, fixed: true, charset: "utf8" }),
        f("r", { kind: "string", maxLength: 3, fixed: false, charset: "utf8" }),
      ]),
    );
    expect(hex(codec.encode({ p: "ab", q: "c", r: "de" }))).toBe("02 6162 630000 0002 6465".replace(/ /g, ""));
  });

  test("a 1-byte length cannot cover maxLength > 255", () => {
    expect(() =>
      compile(
        layoutOf([f("s", { kind: "string", maxLength: 300, fixed: false, charset: "utf8" })], {
          stringMode: "u8-appended",
        }),
      ),
    ).toThrow(LayoutError);
  });
});

describe("every type's mapping", () => {
  const one = (type: Field["type"], value: TypedRecord[string], endianness: "big" | "little" = "big") => {
    const codec = compile(layoutOf([f("v", type)], { endianness }));
    const bytes = codec.encode({ v: value });
    expect(codec.decode(bytes)).toStrictEqual({ v: value });
    return hex(bytes);
  };

  test("bool and enums (B, or H when a value exceeds 255)", () => {
    expect(one({ kind: "bool" }, true)).toBe("01");
    expect(one({ kind: "bool" }, false)).toBe("00");
    const small = {
      kind: "enum" as const,
      values: [
        { name: "A", value: 0 },
        { name: "C", value: 7 },
      ],
    };
    expect(one(small, "C")).toBe("07");
    const wide = {
      kind: "enum" as const,
      values: [
        { name: "A", value: 0 },
        { name: "Z", value: 300 },
      ],
    };
    expect(one(wide, "Z")).toBe("012c");
    expect(one(wide, "Z", "little")).toBe("2c01");
  });

  test("integers at their limits, int64 included", () => {
    const int = (bits: 8 | 16 | 32 | 64, signed: boolean) => ({ kind: "int" as const, bits, signed });
    expect(one(int(8, true), -128)).toBe("80");
    expect(one(int(8, false), 255)).toBe("ff");
    expect(one(int(16, true), -32768)).toBe("8000");
    expect(one(int(16, false), 65535)).toBe("ffff");
    expect(one(int(32, true), -2147483648)).toBe("80000000");
    expect(one(int(32, false), 4294967295)).toBe("ffffffff");
    expect(one(int(64, true), -(1n << 63n))).toBe("8000000000000000");
    expect(one(int(64, true), (1n << 63n) - 1n)).toBe("7fffffffffffffff");
    expect(one(int(64, false), (1n << 64n) - 1n)).toBe("ffffffffffffffff");
    expect(one(int(64, true), -3n, "little")).toBe("fdffffffffffffff");
  });

  test("floats carry -0.0, NaN and infinities bit-exactly; float32 overflow is refused like Python's", () => {
    const f32 = { kind: "float" as const, bits: 32 as const };
    const f64 = { kind: "float" as const, bits: 64 as const };
    expect(one(f32, -0)).toBe("80000000");
    expect(one(f32, Number.NaN)).toBe("7fc00000");
    expect(one(f32, Number.POSITIVE_INFINITY)).toBe("7f800000");
    expect(one(f32, 17.25)).toBe("418a0000");
    expect(one(f32, 1.5, "little")).toBe("0000c03f");
    expect(one(f64, -0)).toBe("8000000000000000");
    expect(one(f64, 1.5)).toBe("3ff8000000000000");
    const codec = compile(layoutOf([f("v", f32)]));
    expect(() => codec.encode({ v: 3.5e38 })).toThrow(/too large for a float32/);
    // rounds to FLT_MAX, which Python accepts too
    expect(hex(codec.encode({ v: 3.4028235e38 }))).toBe("7f7fffff");
  });

  test("fixed-point: the smallest integer holding the raw range", () => {
    const lat = { kind: "fixed" as const, scale: 1e-5, offset: 0, min: -90, max: 90 };
    expect(one(lat, 43.70001)).toBe("0042ae51");
    expect(one(lat, -90)).toBe("ff76abc0");
    const pct = { kind: "fixed" as const, scale: 0.5, offset: 0, min: 0, max: 100 };
    expect(one(pct, 12.5)).toBe("19");
    expect(one({ ...pct, max: 200 }, 12.5)).toBe("0019");
    const offset = { kind: "fixed" as const, scale: 0.1, offset: -40, min: -40, max: 85 };
    expect(one(offset, -40)).toBe("0000");
    const codec = compile(layoutOf([f("v", pct)]));
    expect(() => codec.encode({ v: 101 })).toThrow(EncodeError);
    expect(() => codec.encode({ v: Number.NaN })).toThrow(EncodeError);
    expect(() => codec.decode(Uint8Array.of(201))).toThrow(DecodeError);
  });

  test("timestamps: uint32 whole seconds, int64 ticks otherwise, formatted text in place", () => {
    expect(
      one({ kind: "timestamp", encoding: "epoch", resolution: 1, min: 1577836800, max: 2524608000 }, 1767225600),
    ).toBe("6955b900");
    expect(one({ kind: "timestamp", encoding: "epoch", resolution: 0.1 }, 1767225600.3)).toBe("000000041d593a03");
    expect(one({ kind: "timestamp", encoding: "epoch", resolution: 1, min: -100 }, -3)).toBe("fffffffffffffffd");
    const text = {
      kind: "timestamp" as const,
      encoding: "text" as const,
      textFormat: "YYYY-MM-DD hh:mm:ss",
      resolution: 1,
    };
    const codec = compile(layoutOf([f("v", text)], { stringMode: "fixed" }));
    expect(hex(codec.encode({ v: 1767225600 }))).toBe(Buffer.from("2026-01-01 00:00:00").toString("hex"));
    // in an appended mode the text is a string like any other: length in place, text after
    expect(one(text, 1767225600)).toBe("0013" + Buffer.from("2026-01-01 00:00:00").toString("hex"));
    expect(() => codec.decode(new TextEncoder().encode("2026-02-30 00:00:00"))).toThrow(DecodeError);
  });

  test("arrays: fixed in place, variable with a B (or H) count", () => {
    expect(
      one({ kind: "array", of: { kind: "int", bits: 16, signed: true }, maxCount: 3, fixed: true }, [1, -1, 2]),
    ).toBe("0001ffff0002");
    expect(one({ kind: "array", of: { kind: "float", bits: 32 }, maxCount: 6, fixed: false }, [1.5])).toBe(
      "013fc00000",
    );
    expect(one({ kind: "array", of: { kind: "float", bits: 32 }, maxCount: 6, fixed: false }, [])).toBe("00");
    expect(one({ kind: "array", of: { kind: "int", bits: 8, signed: false }, maxCount: 300, fixed: false }, [7])).toBe(
      "000107",
    );
    const strs = {
      kind: "array" as const,
      of: { kind: "string" as const, maxLength: 4, fixed: false, charset: "utf8" as const },
      maxCount: 3,
      fixed: false,
    };
    expect(one(strs, ["ab", "", "c"])).toBe("03" + "0002" + "0000" + "0001" + "6162" + "63");
  });

  test("optional fields: one presence bit each in layout order, nested included, LSB first", () => {
    const codec = compile(
      layoutOf([
        f("a", { kind: "int", bits: 8, signed: false }),
        f("o1", { kind: "int", bits: 8, signed: false }, { presence: "optional" }),
        f(
          "g",
          {
            kind: "group",
            fields: [
              f("x", { kind: "int", bits: 8, signed: false }, { presence: "optional" }),
              f("y", { kind: "int", bits: 8, signed: false }),
            ] as Field[],
          },
          { presence: "optional" },
        ),
        f("o2", { kind: "string", maxLength: 4, fixed: false, charset: "utf8" }, { presence: "optional" }),
      ]),
    );
    const full = { a: 1, o1: 2, g: { x: 5, y: 6 }, o2: "z" };
    expect(hex(codec.encode(full))).toBe("0f 01 02 05 06 0001 7a".replace(/ /g, ""));
    expect(hex(codec.encode({ a: 1, g: { y: 6 }, o2: "z" }))).toBe("0a 01 06 0001 7a".replace(/ /g, ""));
    expect(hex(codec.encode({ a: 1 }))).toBe("0001");
    const records: TypedRecord[] = [full, { a: 1, g: { y: 6 }, o2: "z" }, { a: 1 }, { a: 1, o2: "" }];
    for (const r of records) expect(codec.decode(codec.encode(r))).toStrictEqual(r);
    // a member's bit while its group is absent, and bits past the last optional field
    expect(() => codec.decode(unhex("0401"))).toThrow(/absent but presence bit 2/);
    expect(() => codec.decode(unhex("1001"))).toThrow(/beyond the optional fields/);
    expect(() => codec.encode({ o1: 2 })).toThrow(/a: is required/);
  });

  test("no bitmap when every field is required", () => {
    expect(one({ kind: "group", fields: [f("x", { kind: "int", bits: 8, signed: false }) as Field] }, { x: 9 })).toBe(
      "09",
    );
  });
});

describe("round trips", () => {
  const layouts: [string, LayoutInput][] = [
    ["every type", everyTypeLayout],
    ["text representations", textRepLayout],
    ...PRESETS.map((p): [string, LayoutInput] => [`preset ${p.id}`, p.layout]),
  ];
  for (const mode of ["fixed", "u8-inline", "u16-inline", "u8-appended", "u16-appended"] as const) {
    for (const endianness of ["big", "little"] as const)
      layouts.push([
        `every type, ${mode}, ${endianness}`,
        { ...everyTypeLayout, struct: { endianness, stringMode: mode } },
      ]);
  }
  test.each(layouts)("%s", (_name, input) => {
    const layout = parseLayout(input);
    const codec = structCodec.compile(layout);
    for (const rec of generateSamples(layout, 300, 7)) {
      const bytes = codec.encode(rec);
      expect(codec.decode(bytes)).toStrictEqual(rec);
      const ws = codec.encodeWithSpans(rec);
      expect(ws.bytes).toEqual(bytes);
      checkCover(ws.spans, bytes.length);
    }
  });

  test("extremes: empty and maximal strings, unicode, empty arrays, all optionals absent", () => {
    const layout = parseLayout(everyTypeLayout);
    const codec = structCodec.compile(layout);
    const base = generateSamples(layout, 1, 3)[0]!;
    const variants: TypedRecord[] = [
      { ...base, note: "", raw: new Uint8Array(0), temps: [], msg: "" },
      {
        ...base,
        note: "🚢🚢🚢🚢🚢",
        raw: new Uint8Array(8).fill(255),
        temps: [-40, 85, 0, -0, 1.5, 2.5].map(toFloat32),
      },
      { ...base, note: "日本語のテキ", f64: -0, f32: Number.NaN, u64: (1n << 64n) - 1n, i64: -(1n << 63n) },
    ];
    const { seq: _s, msg: _m, ...required } = base;
    const gps = { ...(base.gps as TypedRecord) };
    delete gps.sats;
    variants.push({ ...required, gps });
    for (const v of variants) expect(codec.decode(codec.encode(v))).toStrictEqual(v);
    expect(() => codec.encode({ ...base, note: "x".repeat(21) })).toThrow(EncodeError);
    expect(() => codec.encode({ ...base, note: "日本語日本語日" })).toThrow(/21 UTF-8 bytes/);
    expect(() => codec.encode({ ...base, note: "\ud800" })).toThrow(/lone surrogate/);
    expect(() => codec.encode({ ...base, temps: [1, 2, 3, 4, 5, 6, 7] })).toThrow(/at most 6/);
    expect(() => codec.encode({ ...base, acc: [1, 2] })).toThrow(/exactly 3/);
    expect(() => codec.encode({ ...base, u8: 256 })).toThrow(/does not fit uint8/);
    expect(() => codec.encode({ ...base, i32: 1.5 })).toThrow(EncodeError);
    expect(() => codec.encode({ ...base, mode: "NOPE" })).toThrow(EncodeError);
  });
});

describe("malformed input only ever raises DecodeError", () => {
  const layout = parseLayout(everyTypeLayout);
  const codec = structCodec.compile(layout);
  const samples = generateSamples(layout, 40, 11).map((r) => codec.encode(r));

  test("every truncation and any trailing byte", () => {
    for (const bytes of samples.slice(0, 10)) {
      for (let n = 0; n < bytes.length; n++) expect(() => codec.decode(bytes.subarray(0, n))).toThrow(DecodeError);
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expect(() => codec.decode(longer)).toThrow(/1 trailing byte/);
    }
  });

  test("invalid values: bool, enum, UTF-8, lengths, counts", () => {
    const small = compile(
      layoutOf([
        f("b", { kind: "bool" }),
        f("e", { kind: "enum", values: [{ name: "A", value: 0 }] }),
        f("s", { kind: "string", maxLength: 2, fixed: false, charset: "utf8" }),
        f("a", { kind: "array", of: { kind: "int", bits: 8, signed: false }, maxCount: 2, fixed: false }),
      ]),
    );
    expect(hex(small.encode({ b: true, e: "A", s: "hi", a: [9] }))).toBe("01 00 0002 01 09 6869".replace(/ /g, ""));
    expect(() => small.decode(unhex("02 00 0002 01 09 6869"))).toThrow(/not a boolean/);
    expect(() => small.decode(unhex("01 01 0002 01 09 6869"))).toThrow(/not a value of the enum/);
    expect(() => small.decode(unhex("01 00 0002 01 09 c328"))).toThrow(/invalid UTF-8/);
    expect(() => small.decode(unhex("01 00 0003 01 09 686969"))).toThrow(/exceeds maxLength 2/);
    expect(() => small.decode(unhex("01 00 0002 03 09 0909 6869"))).toThrow(/exceeds maxCount 2/);
  });

  test("random garbage and mutated streams", () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const garbage: Uint8Array[] = [];
    const mutated: Uint8Array[] = [];
    for (let i = 0; i < 3000; i++) {
      const src = samples[i % samples.length]!;
      const b =
        i % 3 === 0 ? Uint8Array.from({ length: Math.floor(rnd() * 200) }, () => Math.floor(rnd() * 256)) : src.slice();
      if (i % 3 !== 0) for (let k = 0; k < 1 + (i % 4); k++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      (i % 3 === 0 ? garbage : mutated).push(b);
    }
    // 100 % and 54.0 % rejected when the floors were set (a changed number byte is still a number)
    expectRejectedAtLeast(tallyRejections(codec, garbage), 0.95, "struct random garbage");
    expectRejectedAtLeast(tallyRejections(codec, mutated), 0.5, "struct mutated streams");
    expect(() => codec.decode("nope" as unknown as Uint8Array)).toThrow(DecodeError);
  });
});
