// Cross-implementation check: Python's json, cbor2 and msgpack (the paper's client libraries) encode
// the typed records; Python builds the plain record (the map a device writes, every text
// representation applied) from the typed values and the layout itself, so our text conversion is
// checked too, not handed over. Our encoders must produce the same bytes and our decoders must read
// Python's bytes back to the same typed records.
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cborCodec } from "../../src/formats/cbor/codec.ts";
import { cborIntCodec } from "../../src/formats/cbor-int/codec.ts";
import { jsonCodec } from "../../src/formats/json/codec.ts";
import { msgpackCodec } from "../../src/formats/msgpack/codec.ts";
import { msgpackIntCodec } from "../../src/formats/msgpack-int/codec.ts";
import type { CompiledCodec } from "../../src/formats/types.ts";
import type { Layout, LayoutInput } from "../../src/layout/schema.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import type { TypedRecord } from "../../src/layout/values.ts";
import { paperPreset } from "../../src/presets/paper.ts";
import { generateSamples } from "../../src/samples/generate.ts";
import { everyTypeLayout, textRepLayout } from "../fixtures/layouts.ts";
import { repoRoot, runPython, typedForPython } from "../helpers/python.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** Values at the edges of every form the four encoders choose between. */
const extremesLayout: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Extremes",
  fields: [
    { id: "s", key: "température", name: "s", presence: "required", type: { kind: "string", maxLength: 64 } },
    { id: "u64", key: "u64", name: "u64", presence: "required", type: { kind: "int", bits: 64, signed: false } },
    { id: "i64", key: "i64", name: "i64", presence: "required", type: { kind: "int", bits: 64, signed: true } },
    { id: "i32", key: "i32", name: "i32", presence: "required", type: { kind: "int", bits: 32, signed: true } },
    { id: "u32", key: "u32", name: "u32", presence: "required", type: { kind: "int", bits: 32, signed: false } },
    { id: "f32", key: "f32", name: "f32", presence: "required", type: { kind: "float", bits: 32 } },
    { id: "f64", key: "f64", name: "f64", presence: "required", type: { kind: "float", bits: 64 } },
    {
      id: "arr",
      key: "ключ",
      name: "arr",
      presence: "required",
      type: { kind: "array", of: { kind: "int", bits: 8, signed: true }, maxCount: 40 },
    },
    { id: "raw", key: "raw", name: "raw", presence: "required", type: { kind: "bytes", maxLength: 300 } },
    {
      id: "ts",
      key: "ts",
      name: "ts",
      presence: "optional",
      type: { kind: "timestamp", encoding: "epoch", resolution: 0.001 },
    },
  ],
};

/** Text representations textRepLayout leaves out: padded negatives, repr of doubles and float32s
 * (exponent forms included), epoch timestamps, bytes as hex, 64-bit ints, fixed-point, a list of texts. */
const moreTextLayout: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "More text representations",
  fields: [
    {
      id: "n",
      key: "n",
      name: "n",
      presence: "required",
      type: { kind: "int", bits: 16, signed: true },
      text: { as: "string", pad: 4 },
      sample: { kind: "uniform", min: -500, max: 500 },
    },
    {
      id: "x",
      key: "x",
      name: "x",
      presence: "required",
      type: { kind: "float", bits: 64 },
      text: { as: "string" },
      sample: { kind: "uniform", min: -1e6, max: 1e6 },
    },
    {
      id: "tiny",
      key: "tiny",
      name: "tiny",
      presence: "required",
      type: { kind: "float", bits: 64 },
      text: { as: "string" },
      sample: { kind: "uniform", min: 0, max: 0.001 },
    },
    {
      id: "f",
      key: "f",
      name: "f",
      presence: "required",
      type: { kind: "float", bits: 32, min: -40, max: 85 },
      text: { as: "string", pad: 3 },
      sample: { kind: "uniform", min: -40, max: 85, decimals: 2 },
    },
    {
      id: "ts",
      key: "ts",
      name: "ts",
      presence: "required",
      type: { kind: "timestamp", encoding: "epoch", resolution: 0.001 },
      text: { as: "string" },
      sample: { kind: "walk", start: 1767225600, stepMin: 0.5, stepMax: 90, decimals: 3 },
    },
    {
      id: "raw",
      key: "raw",
      name: "raw",
      presence: "required",
      type: { kind: "bytes", maxLength: 8 },
      text: { as: "string" },
    },
    {
      id: "big",
      key: "big",
      name: "big",
      presence: "required",
      type: { kind: "int", bits: 64, signed: true },
      text: { as: "string" },
      sample: { kind: "uniform", min: -9007199254740991, max: 9007199254740991 },
    },
    {
      id: "fx",
      key: "fx",
      name: "fx",
      presence: "required",
      type: { kind: "fixed", scale: 0.01, offset: 0, min: -90, max: 90 },
      text: { as: "string", decimals: 2, pad: 3 },
    },
    {
      id: "list",
      key: "list",
      name: "list",
      presence: "required",
      type: { kind: "array", of: { kind: "int", bits: 8, signed: true }, maxCount: 5 },
      text: { as: "string" },
    },
    {
      id: "tsText",
      key: "tsText",
      name: "tsText",
      presence: "optional",
      type: { kind: "timestamp", encoding: "text", textFormat: "YYYY-MM-DDThh:mm:ss.ssZ", resolution: 0.01 },
    },
  ],
};

const STRINGS = [
  "",
  "é",
  "日本",
  "🚢 ship",
  '\u0000\u001f"\\/\u007f\u0080',
  "a".repeat(64),
  "\u2028\u2029\ufeff",
  "x".repeat(31),
  "é".repeat(32),
];
const U64 = [
  0n,
  23n,
  24n,
  255n,
  256n,
  65535n,
  65536n,
  4294967295n,
  4294967296n,
  9007199254740993n,
  18446744073709551615n,
];
const I64 = [-9223372036854775808n, 9223372036854775807n, -1n, -24n, -25n, -129n, -2147483649n, -9007199254740993n, 0n];
const I32 = [-2147483648, 2147483647, -32, -33, -128, -129, -32768, -32769, 0];
const U32 = [0, 127, 128, 255, 256, 65535, 65536, 4294967295];
const F32 = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  0,
  3.4028234663852886e38,
  1.401298464324817e-45,
  Math.fround(1e-5),
  Math.fround(0.1),
  Math.fround(16777216),
  Math.fround(-273.15),
];
const F64 = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  5e-324,
  1.7976931348623157e308,
  1e16,
  1e-5,
  0.1,
  123456789.125,
  -2.5,
];
const ARRS = [
  [],
  Array.from({ length: 40 }, (_, i) => i * 6 - 120),
  [-128, 127, -1, 0],
  Array.from({ length: 31 }, () => 1),
];
const RAWS = [
  new Uint8Array(0),
  Uint8Array.from({ length: 300 }, (_, i) => i & 255),
  Uint8Array.from([0, 255]),
  new Uint8Array(31),
];
const TS = [undefined, 1767225600.123, 1767225600, 2 ** 32 + 1];

function extremeRecords(): TypedRecord[] {
  const pick = <T>(xs: T[], i: number): T => xs[i % xs.length]!;
  return Array.from({ length: 24 }, (_, i) => {
    const rec: TypedRecord = {
      température: pick(STRINGS, i),
      u64: pick(U64, i),
      i64: pick(I64, i),
      i32: pick(I32, i),
      u32: pick(U32, i),
      f32: pick(F32, i),
      f64: pick(F64, i),
      ключ: pick(ARRS, i),
      raw: pick(RAWS, i),
    };
    const ts = pick(TS, i);
    if (ts !== undefined) rec.ts = ts;
    return rec;
  });
}

interface Case {
  layout: Layout;
  records: TypedRecord[];
}

const withSpacing = (layout: Layout, spacing: "compact" | "python"): Layout => ({ ...layout, json: { spacing } });

describe("self-describing formats against Python json / cbor2 / msgpack", () => {
  const cases: Case[] = [];
  const results: {
    json_python: string;
    json_compact: string;
    cbor: string;
    msgpack: string;
    cbor_int: string;
    msgpack_int: string;
  }[] = [];

  beforeAll(() => {
    const paper = parseLayout(paperPreset);
    const every = parseLayout(everyTypeLayout);
    const text = parseLayout(textRepLayout);
    const extremes = parseLayout(extremesLayout);
    const more = parseLayout(moreTextLayout);
    cases.push({ layout: paper, records: generateSamples(paper, 1000, 1) });
    cases.push({ layout: every, records: generateSamples(every, 300, 1) });
    cases.push({ layout: text, records: generateSamples(text, 300, 1) });
    cases.push({ layout: extremes, records: extremeRecords() });
    cases.push({ layout: more, records: generateSamples(more, 300, 3) });
    for (const c of cases) {
      const out = runPython(path.join(repoRoot, "codecs/reference/ref_selfdescribing.py"), {
        layout: c.layout,
        records: c.records.map(typedForPython),
      }) as { results: typeof results };
      expect(out.results.length).toBe(c.records.length);
      results.push(...out.results);
    }
  });

  const forEachRecord = (
    fn: (layout: Layout, rec: TypedRecord, ref: (typeof results)[number], where: string) => void,
  ) => {
    let k = 0;
    for (const c of cases) {
      c.records.forEach((rec, i) => fn(c.layout, rec, results[k++]!, `${c.layout.name} #${i}`));
    }
  };

  function checkFormat(pick: (ref: (typeof results)[number]) => string, compileFor: (layout: Layout) => CompiledCodec) {
    let compared = 0;
    const compiled = new Map<Layout, CompiledCodec>();
    forEachRecord((layout, rec, ref, where) => {
      let codec = compiled.get(layout);
      if (!codec) compiled.set(layout, (codec = compileFor(layout)));
      const ours = codec.encode(rec);
      const theirs = pick(ref);
      if (hex(ours) !== theirs) expect.soft(hex(ours), where).toBe(theirs);
      expect(codec.decode(Buffer.from(theirs, "hex")), where).toEqual(rec);
      compared++;
    });
    expect(compared).toBeGreaterThanOrEqual(1000 + 300 + 300 + 24 + 300);
  }

  test("JSON, python spacing = json.dumps(obj)", () => {
    checkFormat(
      (r) => r.json_python,
      (l) => jsonCodec.compile(withSpacing(l, "python")),
    );
  });

  test('JSON, compact spacing = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)', () => {
    checkFormat(
      (r) => r.json_compact,
      (l) => jsonCodec.compile(withSpacing(l, "compact")),
    );
  });

  test("CBOR = cbor2.dumps(obj) with float32 fields as 0xfa", () => {
    checkFormat(
      (r) => r.cbor,
      (l) => cborCodec.compile(l),
    );
  });

  test("MessagePack = msgpack.packb(obj) with float32 fields as 0xca", () => {
    checkFormat(
      (r) => r.msgpack,
      (l) => msgpackCodec.compile(l),
    );
  });

  // the same dicts keyed by the fields' numbers: cbor2 and msgpack write the int keys themselves
  test("CBOR, integer keys = cbor2.dumps(number-keyed obj) with float32 fields as 0xfa", () => {
    checkFormat(
      (r) => r.cbor_int,
      (l) => cborIntCodec.compile(l),
    );
  });

  test("MessagePack, integer keys = msgpack.packb(number-keyed obj) with float32 fields as 0xca", () => {
    checkFormat(
      (r) => r.msgpack_int,
      (l) => msgpackIntCodec.compile(l),
    );
  });
});

describe("the paper's Table 2 sizes (mean over 10 000 samples, seed 1)", () => {
  const layout = parseLayout(paperPreset);
  const records = generateSamples(layout, 10_000, 1);
  const mean = (codec: CompiledCodec) => records.reduce((s, r) => s + codec.encode(r).length, 0) / records.length;

  test.each([
    ["JSON (python spacing)", () => jsonCodec.compile(layout), 418],
    ["CBOR", () => cborCodec.compile(layout), 298],
    ["MessagePack", () => msgpackCodec.compile(layout), 301],
  ] as const)("%s is within ±6 bytes of the paper", (name, compileCodec, paper) => {
    expect(layout.json.spacing).toBe("python");
    const m = mean(compileCodec());
    console.log(`${name}: mean ${m.toFixed(2)} bytes over ${records.length} samples (paper: ${paper})`);
    expect(Math.abs(m - paper)).toBeLessThanOrEqual(6);
  });
});
