// SBE: header, root block, repeating groups and var data byte for byte; null values of optional
// fields; schema-evolution rules on decode; round trips and malformed input.
import { describe, expect, test } from "vitest";
import { DecodeError, EncodeError } from "../src/errors.ts";
import { everyTypeLayout, textRepLayout } from "./fixtures/layouts.ts";
import { PAPER_EXAMPLE } from "./fixtures/paperExample.ts";
import { expectRejectedAtLeast, tallyRejections } from "./helpers/codecChecks.ts";
import { recordBuilder, type ShapeNode } from "../src/formats/fixed/builder.ts";
import { sbeCodec } from "../src/formats/sbe/codec.ts";
import type { Span } from "../src/formats/types.ts";
import type { Field, LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";
import { PRESETS } from "../src/presets/index.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { toFloat32 } from "../src/text/numbers.ts";

type FieldIn = Omit<Field, "presence"> & { presence?: "required" | "optional" };
const f = (id: string, type: Field["type"], extra: Partial<FieldIn> = {}): FieldIn => ({
  id,
  key: id,
  name: id,
  type,
  ...extra,
});
const opt = (id: string, type: Field["type"]) => f(id, type, { presence: "optional" });

function layoutOf(fields: FieldIn[], sbe?: { schemaId: number; templateId: number; version: number }): LayoutInput {
  return {
    format: "satlayout",
    version: 1,
    name: "t",
    ...(sbe ? { sbe } : {}),
    fields: fields.map((x) => ({ presence: "required", ...x })) as LayoutInput["fields"],
  };
}
const compile = (input: LayoutInput) => sbeCodec.compile(parseLayout(input));
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const unhex = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ""), "hex"));
const u8 = { kind: "int", bits: 8, signed: false } as const;

function checkCover(spans: Span[], length: number): void {
  let at = 0;
  for (const s of spans) {
    expect(s.start).toBe(at);
    expect(s.end).toBeGreaterThan(s.start);
    at = s.end;
  }
  expect(at).toBe(length);
}

// Python: struct.pack('<HHHH', 68, 1, 1, 0) + struct.pack('<15sBBBffffffBfffffBf', b'010625 114512.3', 28, 0,
// 92, -993.1234, -27.0, -52.0, 17.0, 71.0, 1012.4, 1, 31.86, 28.74, 49.5, 12.3, 271.5, 6, 1.8) + for each of
// msisdn, iso6346, cgi, door: struct.pack('<H', len(s)) + s
const PAPER_EXAMPLE_HEX =
  "4400010001000000" +
  "303130363235203131343531322e331c005ce64778c40000d8c1000050c20000884100008e429a197d440148e1fe4185ebe54100004642cdcc444100c08743066666e63f" +
  "0c003339333630303530343837330b004c4d4355303132333435360e003939392d30312d312d3331443431010044";

describe("the paper's record", () => {
  const paper = parseLayout(paperPreset);
  const codec = sbeCodec.compile(paper);

  test("header, 68-byte root block (text time as char[15]), then var data: 122 bytes", () => {
    const bytes = codec.encode(PAPER_EXAMPLE);
    expect(hex(bytes)).toBe(PAPER_EXAMPLE_HEX);
    expect(codec.decode(bytes)).toStrictEqual(PAPER_EXAMPLE);
  });

  test("every sample is 122 bytes and round-trips", () => {
    for (const rec of generateSamples(paper, 1000, 1)) {
      const bytes = codec.encode(rec);
      expect(bytes.length).toBe(122);
      expect(codec.decode(bytes)).toStrictEqual(rec);
    }
  });

  test("spans", () => {
    const { bytes, spans } = codec.encodeWithSpans(PAPER_EXAMPLE);
    expect(hex(bytes)).toBe(PAPER_EXAMPLE_HEX);
    checkCover(spans, bytes.length);
    expect(spans[0]).toEqual({ start: 0, end: 8, field: "", role: "framing" });
    expect(spans[1]).toEqual({ start: 8, end: 23, field: "time", role: "value" });
    expect(spans.slice(-2)).toEqual([
      { start: 119, end: 121, field: "door", role: "length" },
      { start: 121, end: 122, field: "door", role: "value" },
    ]);
  });
});

describe("message layout", () => {
  const fields = [
    f("a", { kind: "int", bits: 16, signed: false }),
    f("s", { kind: "string", maxLength: 6, fixed: false, charset: "utf8" }),
    f("c", { kind: "string", maxLength: 4, fixed: true, charset: "utf8" }),
    f("arr", { kind: "array", of: u8, maxCount: 5, fixed: false }),
    f("i", { kind: "int", bits: 8, signed: true }),
    f("names", {
      kind: "array",
      of: { kind: "string", maxLength: 3, fixed: false, charset: "utf8" },
      maxCount: 2,
      fixed: false,
    }),
  ];
  const rec: TypedRecord = { a: 0x1234, s: "hé", c: "ab", arr: [7, 9], i: -2, names: ["x", ""] };
  // header · root block (a, c, i) · group arr (blockLength 1) · group names (blockLength 0, var data per entry) · var data s
  const expected =
    "0700 2a00 0700 0300" + "3412 61620000 fe" + "0100 0200 07 09" + "0000 0200 0100 78 0000" + "0300 68c3a9";

  test("root block, then repeating groups, then var data, with the layout's header ids", () => {
    const codec = compile(layoutOf(fields, { schemaId: 7, templateId: 42, version: 3 }));
    const bytes = codec.encode(rec);
    expect(hex(bytes)).toBe(expected.replace(/ /g, ""));
    expect(codec.decode(bytes)).toStrictEqual(rec);
    const { spans } = codec.encodeWithSpans(rec);
    checkCover(spans, bytes.length);
    expect(spans.filter((s) => s.field === "arr")).toEqual([
      { start: 15, end: 17, field: "arr", role: "framing" },
      { start: 17, end: 19, field: "arr", role: "length" },
      { start: 19, end: 21, field: "arr", role: "value" },
    ]);
    expect(spans.filter((s) => s.field === "c")).toEqual([
      { start: 10, end: 12, field: "c", role: "value" },
      { start: 12, end: 14, field: "c", role: "framing" },
    ]);
  });

  test("header checks: template and schema must match; a longer root block or group entry is skipped", () => {
    const codec = compile(layoutOf(fields, { schemaId: 7, templateId: 42, version: 3 }));
    const bytes = unhex(expected);
    expect(() => codec.decode(unhex(expected.replace("2a00", "2b00")))).toThrow(
      /templateId 43 is not this layout's 42/,
    );
    expect(() => codec.decode(unhex(expected.replace("0700 2a00 0700", "0700 2a00 0800")))).toThrow(/schemaId 8/);
    expect(() => codec.decode(unhex(expected.replace("0700 2a00", "0600 2a00")))).toThrow(/blockLength 6 is shorter/);
    // a newer version's root block with three more bytes
    const wider = unhex(
      "0a00 2a00 0700 0400" +
        "3412 61620000 fe" +
        "aabbcc" +
        "0100 0200 07 09" +
        "0000 0200 0100 78 0000" +
        "0300 68c3a9",
    );
    expect(codec.decode(wider)).toStrictEqual(rec);
    // group entries grown to 2 bytes each
    const widerEntries = unhex(
      "0700 2a00 0700 0300" + "3412 61620000 fe" + "0200 0200 07ee 09ee" + "0000 0200 0100 78 0000" + "0300 68c3a9",
    );
    expect(codec.decode(widerEntries)).toStrictEqual(rec);
    expect(() => codec.decode(unhex(expected.replace("0100 0200 07 09", "0000 0200 07 09")))).toThrow(
      /group blockLength 0/,
    );
    // trailing bytes: an error for this version, groups/var data of a newer version otherwise
    const trailing = new Uint8Array([...bytes, 1, 2]);
    expect(() => codec.decode(trailing)).toThrow(/2 trailing bytes/);
    const newer = trailing.slice();
    newer[6] = 4;
    expect(codec.decode(newer)).toStrictEqual(rec);
  });

  test("counts and lengths beyond the layout", () => {
    const codec = compile(layoutOf(fields, { schemaId: 7, templateId: 42, version: 3 }));
    expect(() => codec.decode(unhex(expected.replace("0100 0200 07 09", "0100 0600 07 09 01 02 03 04")))).toThrow(
      /numInGroup 6 exceeds maxCount 5/,
    );
    expect(() => codec.decode(unhex(expected.replace("0300 68c3a9", "0700 68c3a9 61626364")))).toThrow(
      /length 7 exceeds maxLength 6/,
    );
    expect(() => codec.decode(unhex(expected.replace("0300 68c3a9", "0200 c328")))).toThrow(/invalid UTF-8/);
    expect(() => codec.decode(unhex(expected.replace("61620000", "61006200")))).toThrow(/after the terminating NUL/);
  });
});

describe("null values of optional fields", () => {
  const nullOf = (type: Field["type"]) => {
    const codec = compile(layoutOf([f("r", u8), opt("v", type)]));
    const bytes = codec.encode({ r: 1 });
    expect(codec.decode(bytes)).toStrictEqual({ r: 1 });
    return hex(bytes.subarray(9));
  };

  test("root-block slots", () => {
    expect(nullOf(u8)).toBe("ff");
    expect(nullOf({ kind: "int", bits: 16, signed: true })).toBe("0080");
    expect(nullOf({ kind: "int", bits: 64, signed: true })).toBe("0000000000000080");
    expect(nullOf({ kind: "int", bits: 64, signed: false })).toBe("ffffffffffffffff");
    expect(nullOf({ kind: "float", bits: 32 })).toBe("0000c07f");
    expect(nullOf({ kind: "float", bits: 64 })).toBe("000000000000f87f");
    expect(nullOf({ kind: "bool" })).toBe("ff");
    expect(
      nullOf({
        kind: "enum",
        values: [
          { name: "A", value: 0 },
          { name: "B", value: 254 },
        ],
      }),
    ).toBe("ff");
    // 255 is a value, so the enum widens to uint16 and its null is 0xffff
    expect(
      nullOf({
        kind: "enum",
        values: [
          { name: "A", value: 0 },
          { name: "B", value: 255 },
        ],
      }),
    ).toBe("ffff");
    // raw range 0..255 would collide with uint8's null: uint16
    expect(nullOf({ kind: "fixed", scale: 0.5, offset: 0, min: 0, max: 127.5 })).toBe("ffff");
    expect(nullOf({ kind: "fixed", scale: 0.5, offset: 0, min: 0, max: 127 })).toBe("ff");
    expect(nullOf({ kind: "fixed", scale: 1, offset: 0, min: -127, max: 127 })).toBe("80");
    expect(nullOf({ kind: "timestamp", encoding: "epoch", resolution: 1 })).toBe("ffffffff");
    expect(nullOf({ kind: "timestamp", encoding: "epoch", resolution: 0.1 })).toBe("0000000000000080");
    expect(nullOf({ kind: "timestamp", encoding: "text", textFormat: "hh:mm", resolution: 1 })).toBe("0000000000");
    expect(nullOf({ kind: "string", maxLength: 3, fixed: true, charset: "utf8" })).toBe("000000");
    expect(nullOf({ kind: "bytes", maxLength: 2, fixed: true })).toBe("ffff");
    expect(nullOf({ kind: "array", of: { kind: "float", bits: 32 }, maxCount: 2, fixed: true })).toBe(
      "0000c07f0000c07f",
    );
  });

  test("var data and repeating groups: empty", () => {
    expect(nullOf({ kind: "string", maxLength: 3, fixed: false, charset: "utf8" })).toBe("0000");
    expect(nullOf({ kind: "array", of: u8, maxCount: 3, fixed: false })).toBe("01000000");
  });

  test("a present value equal to the null would read back as absent: EncodeError", () => {
    const enc = (type: Field["type"], v: TypedRecord[string]) => () =>
      compile(layoutOf([opt("v", type)])).encode({ v });
    expect(enc(u8, 255)).toThrow(EncodeError);
    expect(enc(u8, 254)).not.toThrow();
    expect(enc({ kind: "float", bits: 32 }, Number.NaN)).toThrow(/SBE null/);
    expect(enc({ kind: "string", maxLength: 3, fixed: false, charset: "utf8" }, "")).toThrow(/SBE null/);
    expect(enc({ kind: "string", maxLength: 3, fixed: true, charset: "utf8" }, "")).toThrow(/SBE null/);
    expect(enc({ kind: "array", of: u8, maxCount: 3, fixed: false }, [])).toThrow(/SBE null/);
    expect(enc({ kind: "bytes", maxLength: 2, fixed: true }, Uint8Array.of(255, 255))).toThrow(/SBE null/);
    expect(enc({ kind: "group", fields: [opt("x", u8) as Field] }, {})).toThrow(/reads back as an absent group/);
    // a required field holding the null value is just a value
    const req = compile(layoutOf([f("v", u8), f("w", { kind: "float", bits: 64 })]));
    expect(req.decode(req.encode({ v: 255, w: Number.NaN }))).toStrictEqual({ v: 255, w: Number.NaN });
  });

  test("optional groups: absent is every slot null; present groups keep null members", () => {
    const group = {
      kind: "group" as const,
      fields: [
        f("lat", { kind: "float", bits: 64 }),
        opt("sats", u8),
        f("tag", { kind: "string", maxLength: 4, fixed: false, charset: "utf8" }),
        opt("inner", { kind: "group", fields: [f("ok", { kind: "bool" }) as Field] }),
      ] as Field[],
    };
    const codec = compile(layoutOf([f("r", u8), opt("g", group)]));
    // r · lat NaN · sats ff · ok ff · tag empty
    expect(hex(codec.encode({ r: 1 }))).toBe("0b00010001000000" + "01" + "000000000000f87f" + "ff" + "ff" + "0000");
    const cases: TypedRecord[] = [
      { r: 1 },
      { r: 1, g: { lat: 1.5, tag: "" } },
      { r: 1, g: { lat: Number.NaN, tag: "x" } },
      { r: 1, g: { lat: Number.NaN, sats: 3, tag: "" } },
      { r: 1, g: { lat: 2, sats: 3, tag: "abcd", inner: { ok: false } } },
      { r: 1, g: { lat: Number.NaN, tag: "", inner: { ok: true } } },
    ];
    for (const c of cases) expect(codec.decode(codec.encode(c))).toStrictEqual(c);
    expect(() => codec.encode({ r: 1, g: { lat: Number.NaN, tag: "" } })).toThrow(/absent group/);
    expect(() => codec.encode({ r: 1, g: { tag: "x" } })).toThrow(/g\.lat: is required/);
    // present (sats set) while the required bool holds its null: not a record the encoder writes
    expect(() =>
      codec.decode(unhex("0b00010001000000" + "01" + "000000000000f87f" + "03" + "ff" + "0000")),
    ).not.toThrow();
    const badInner = compile(
      layoutOf([opt("g", { kind: "group", fields: [f("ok", { kind: "bool" }) as Field, opt("n", u8) as Field] })]),
    );
    expect(() => badInner.decode(unhex("0200010001000000" + "ff" + "05"))).toThrow(
      /required member holds its null value/,
    );
    expect(() => badInner.decode(unhex("0200010001000000" + "02" + "05"))).toThrow(/not a boolean/);
  });
});

describe("round trips", () => {
  const special = layoutOf([
    f(
      "names",
      { kind: "array", of: { kind: "string", maxLength: 5, fixed: false, charset: "utf8" }, maxCount: 4, fixed: true },
      { sample: { kind: "elements", each: [{ kind: "template", template: "{alpha:3}" }] } },
    ),
    f(
      "codes",
      { kind: "array", of: { kind: "string", maxLength: 2, fixed: true, charset: "utf8" }, maxCount: 3, fixed: true },
      { sample: { kind: "elements", each: [{ kind: "template", template: "{alpha:2}" }] } },
    ),
    f(
      "macs",
      { kind: "array", of: { kind: "bytes", maxLength: 2, fixed: true }, maxCount: 2, fixed: false },
      { sample: { kind: "elements", each: [{ kind: "constant", value: [1, 2] }], minCount: 0, maxCount: 2 } },
    ),
    f(
      "blobs",
      { kind: "array", of: { kind: "bytes", maxLength: 3, fixed: false }, maxCount: 2, fixed: false },
      { sample: { kind: "elements", each: [{ kind: "constant", value: [9] }], minCount: 1, maxCount: 2 } },
    ),
    opt("when", { kind: "timestamp", encoding: "text", textFormat: "YYMMDDhhmmss", resolution: 1 }),
    opt("pos", {
      kind: "group",
      fields: [
        f("lat", { kind: "fixed", scale: 1e-5, offset: 0, min: -90, max: 90 }) as Field,
        opt("alt", { kind: "int", bits: 16, signed: true }) as Field,
        f(
          "list",
          { kind: "array", of: u8, maxCount: 3, fixed: false },
          { sample: { kind: "elements", each: [{ kind: "uniform", min: 0, max: 200 }], minCount: 1, maxCount: 3 } },
        ) as Field,
      ],
    }),
  ]);
  const layouts: [string, LayoutInput][] = [
    ["every type", everyTypeLayout],
    ["text representations", textRepLayout],
    ["groups and arrays", special],
    ...PRESETS.map((p): [string, LayoutInput] => [`preset ${p.id}`, p.layout]),
  ];

  test.each(layouts)("%s", (_name, input) => {
    const layout = parseLayout(input);
    const codec = sbeCodec.compile(layout);
    for (const rec of generateSamples(layout, 300, 5)) {
      const bytes = codec.encode(rec);
      expect(codec.decode(bytes)).toStrictEqual(rec);
      const ws = codec.encodeWithSpans(rec);
      expect(ws.bytes).toEqual(bytes);
      checkCover(ws.spans, bytes.length);
    }
  });

  test("extremes", () => {
    const layout = parseLayout(everyTypeLayout);
    const codec = sbeCodec.compile(layout);
    const base = generateSamples(layout, 1, 3)[0]!;
    const { seq: _s, msg: _m, ...required } = base;
    const variants: TypedRecord[] = [
      {
        ...base,
        note: "",
        raw: new Uint8Array(0),
        temps: [],
        u64: (1n << 64n) - 1n,
        i64: -(1n << 63n),
        f64: -0,
        f32: Number.NaN,
      },
      {
        ...base,
        note: "🚢🚢🚢🚢🚢",
        raw: new Uint8Array(8).fill(255),
        temps: [-40, 85, 0, -0, 1.5, 2.5].map(toFloat32),
        u8: 255,
        i8: -128,
      },
      { ...required, gps: { lat: -90, lon: 180 } },
    ];
    for (const v of variants) expect(codec.decode(codec.encode(v))).toStrictEqual(v);
    expect(() => codec.encode({ ...base, code: "AB\0" })).toThrow(/U\+0000/);
    expect(() => codec.encode({ ...base, mac: Uint8Array.of(1) })).toThrow(/exactly 6 bytes/);
    expect(() => codec.encode({ ...base, note: "x".repeat(21) })).toThrow(EncodeError);
    expect(() => codec.encode({ ...base, msg: "" })).toThrow(/SBE null/);
  });
});

describe("malformed input only ever raises DecodeError", () => {
  const layout = parseLayout(everyTypeLayout);
  const codec = sbeCodec.compile(layout);
  const samples = generateSamples(layout, 40, 11).map((r) => codec.encode(r));

  test("every truncation", () => {
    for (const bytes of samples.slice(0, 10))
      for (let n = 0; n < bytes.length; n++) expect(() => codec.decode(bytes.subarray(0, n))).toThrow(DecodeError);
  });

  test("random garbage and mutated messages", () => {
    let seed = 777;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const garbage: Uint8Array[] = [];
    const mutated: Uint8Array[] = [];
    for (let i = 0; i < 3000; i++) {
      const src = samples[i % samples.length]!;
      const b =
        i % 3 === 0 ? Uint8Array.from({ length: Math.floor(rnd() * 200) }, () => Math.floor(rnd() * 256)) : src.slice();
      // keep the header valid on mutated messages so the body gets exercised
      if (i % 3 !== 0)
        for (let k = 0; k < 1 + (i % 4); k++) b[8 + Math.floor(rnd() * (b.length - 8))] = Math.floor(rnd() * 256);
      (i % 3 === 0 ? garbage : mutated).push(b);
    }
    // 100 % and 52.8 % rejected when the floors were set
    expectRejectedAtLeast(tallyRejections(codec, garbage), 0.95, "sbe random garbage");
    const body = tallyRejections(codec, mutated);
    expectRejectedAtLeast(body, 0.48, "sbe mutated bodies");
    // float and integer bytes take any value, so some mutations still decode
    expect(body.rejected).toBeLessThan(body.inputs);
  });
});

describe("record builder", () => {
  test("the generated object literal and the closure fallback build the same records", () => {
    const shape: ShapeNode[] = [
      { key: "a-b", optional: false, slot: 0, direct: { code: "H", pos: 0 } },
      { key: "acc", optional: false, slot: 1, direct: { code: "f", pos: 2, count: 2 } },
      { key: 'q"uote', optional: true, slot: 2 },
      {
        key: "g",
        optional: true,
        slot: 3,
        children: [
          { key: "x", optional: false, slot: 4 },
          {
            key: "inner",
            optional: false,
            slot: 5,
            children: [
              { key: "y", optional: true, slot: 6 },
              { key: "big", optional: false, slot: 7, direct: { code: "q", pos: 10 } },
            ],
          },
        ],
      },
    ];
    const dv = new DataView(new ArrayBuffer(18));
    dv.setUint16(0, 0x1234, true);
    dv.setFloat32(2, 1.5, true);
    dv.setFloat32(6, -2, true);
    dv.setBigInt64(10, -5n, true);
    const cases: [unknown[], TypedRecord][] = [
      [
        [undefined, undefined, "v", true, 1, true, 9],
        { "a-b": 0x1234, acc: [1.5, -2], 'q"uote': "v", g: { x: 1, inner: { y: 9, big: -5n } } },
      ],
      [
        [undefined, undefined, undefined, true, 1, true, undefined],
        { "a-b": 0x1234, acc: [1.5, -2], g: { x: 1, inner: { big: -5n } } },
      ],
      [[undefined, undefined, undefined, undefined, 1, true, 9], { "a-b": 0x1234, acc: [1.5, -2] }],
    ];
    for (const codegen of [true, false]) {
      const build = recordBuilder(shape, true, codegen);
      for (const [vals, expected] of cases) expect(build(vals, dv)).toStrictEqual(expected);
    }
  });
});
