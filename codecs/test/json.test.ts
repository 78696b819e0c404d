// JSON's own wire details: Python's escapes and float reprs, key and brace spans, what other
// writers send, bytes as hex or base64, invalid UTF-8 offsets, layout mismatches, deep nesting.
// What every format must do (round trip in both spacings, error mapping, the sensor record's
// json.dumps bytes, extremes, strict-decode offsets) is a row of conformance/table.ts.
import { describe, expect, test } from "vitest";
import { decodeTarget, extremesJson } from "./conformance/layouts.ts";
import { DecodeError } from "../src/errors.ts";
import { everyTypeLayout } from "./fixtures/layouts.ts";
import { sensor } from "./fixtures/sensor.ts";
import { jsonCodec } from "../src/formats/json/codec.ts";
import { pyFloat32Repr } from "../src/formats/selfdescribing/float32Text.ts";
import type { Layout } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { toFloat32 } from "../src/text/numbers.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const withSpacing = (layout: Layout, spacing: "compact" | "python"): Layout => ({ ...layout, json: { spacing } });

describe("JSON text as Python's json.dumps writes it", () => {
  test("escapes match Python for every ASCII control character, quote, backslash and DEL", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "s",
      fields: [{ id: "s", key: "s", name: "s", presence: "required", type: { kind: "string", maxLength: 64 } }],
    });
    const s = '\u0000\u0001\u0008\u0009\u000a\u000c\u000d\u001f"\\/\u007f\u0080';
    // json.dumps({"s": s}) and json.dumps({"s": s}, separators=(",", ":"), ensure_ascii=False)
    expect(text(jsonCodec.compile(withSpacing(layout, "python")).encode({ s }))).toBe(
      '{"s": "\\u0000\\u0001\\b\\t\\n\\f\\r\\u001f\\"\\\\/\\u007f\\u0080"}',
    );
    expect(text(jsonCodec.compile(withSpacing(layout, "compact")).encode({ s }))).toBe(
      '{"s":"\\u0000\\u0001\\b\\t\\n\\f\\r\\u001f\\"\\\\/\u007f\u0080"}',
    );
  });

  test("float64 fields print as Python repr", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "f",
      fields: [{ id: "x", key: "x", name: "x", presence: "required", type: { kind: "float", bits: 64 } }],
    });
    const codec = jsonCodec.compile(layout);
    const cases: [number, string][] = [
      [1e16, "1e+16"],
      [1e-5, "1e-05"],
      [0.1, "0.1"],
      [5e-324, "5e-324"],
      [1e22, "1e+22"],
      [123456789012345680, "1.2345678901234568e+17"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [1e15, "1000000000000000.0"],
      [0.0001, "0.0001"],
      [20, "20.0"],
      [-0, "-0.0"],
      [Number.NEGATIVE_INFINITY, "-Infinity"],
    ];
    for (const [x, repr] of cases) expect(text(codec.encode({ x }))).toBe(`{"x":${repr}}`);
  });

  test("float32 values print with the fewest digits that read back to the same float32, Python-style", () => {
    const cases: [number, string][] = [
      [17.23, "17.23"],
      [0.1, "0.1"],
      [1e-5, "1e-05"],
      [16777216, "16777216.0"],
      [3.4028234663852886e38, "3.4028235e+38"],
      [1.401298464324817e-45, "1e-45"],
      [1e16, "1e+16"],
      [123456789, "123456790.0"],
      [-273.15, "-273.15"],
      [0.0001, "0.0001"],
      [-0, "-0.0"],
      [20, "20.0"],
      [1023.99, "1023.99"],
    ];
    for (const [x, repr] of cases) expect(pyFloat32Repr(toFloat32(x)), String(x)).toBe(repr);
  });
});

describe("JSON spans", () => {
  test("keys take their separator, quotes and colon; group braces are the group's framing", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "g",
      fields: [
        { id: "a", key: "a", name: "a", presence: "required", type: { kind: "int", bits: 8, signed: false } },
        {
          id: "g",
          key: "g",
          name: "g",
          presence: "required",
          type: {
            kind: "group",
            fields: [
              { id: "x", key: "x", name: "x", presence: "required", type: { kind: "int", bits: 8, signed: false } },
            ],
          },
        },
      ],
    });
    const { bytes, spans } = jsonCodec.compile(withSpacing(layout, "python")).encodeWithSpans({ a: 1, g: { x: 2 } });
    expect(text(bytes)).toBe('{"a": 1, "g": {"x": 2}}');
    expect(spans).toEqual([
      { start: 0, end: 1, field: "", role: "framing" },
      { start: 1, end: 6, field: "a", role: "key" },
      { start: 6, end: 7, field: "a", role: "value" },
      { start: 7, end: 14, field: "g", role: "key" },
      { start: 14, end: 15, field: "g", role: "framing" },
      { start: 15, end: 20, field: "g/x", role: "key" },
      { start: 20, end: 21, field: "g/x", role: "value" },
      { start: 21, end: 22, field: "g", role: "framing" },
      { start: 22, end: 23, field: "", role: "framing" },
    ]);
  });

  test("spans cover every byte in order and the bytes equal encode()", () => {
    for (const input of [paperPreset, everyTypeLayout]) {
      const layout = parseLayout(input);
      const codec = jsonCodec.compile(layout);
      for (const rec of generateSamples(layout, 50, 3)) {
        const { bytes, spans } = codec.encodeWithSpans(rec);
        expect(bytes).toEqual(codec.encode(rec));
        let at = 0;
        for (const s of spans) {
          expect(s.start).toBe(at);
          expect(s.end).toBeGreaterThan(s.start);
          at = s.end;
        }
        expect(at).toBe(bytes.length);
      }
    }
  });
});

describe("JSON reads what others write", () => {
  test("reads what other writers send: whitespace, escapes, exponents, numbers for float fields", () => {
    const codec = jsonCodec.compile(sensor);
    const doc =
      ' \n{ "name" : "h\\u00E9 \\uD83D\\uDEA2\\n\\/" ,"count":4.2e1,"temp":1.723E1,"ratio":1e-1,"ok":true,"big":-9223372036854775808,\t"raw":"AQID","vals":[],"pos":{"n":3,"lat":43},"mode":0,"t":"17.00"}\r\n';
    expect(codec.decode(utf8(doc))).toEqual({
      name: "hé 🚢\n/",
      count: 42,
      temp: toFloat32(17.23),
      ratio: 0.1,
      ok: true,
      big: -9223372036854775808n,
      raw: Uint8Array.from([1, 2, 3]),
      vals: [],
      pos: { lat: 43, n: 3 },
      mode: "IDLE",
      t: 17,
    });
  });
});

describe("JSON bytes fields", () => {
  const layout = parseLayout({
    format: "satlayout",
    version: 1,
    name: "Bytes as text",
    fields: [
      {
        id: "h",
        key: "h",
        name: "h",
        presence: "required",
        type: { kind: "bytes", maxLength: 8 },
        text: { as: "string" },
      },
      { id: "b", key: "b", name: "b", presence: "required", type: { kind: "bytes", maxLength: 8 } },
    ],
  });
  test("written as text they are hex both ways; without a text form, base64", () => {
    const codec = jsonCodec.compile(layout);
    const rec = { h: Uint8Array.from([0x0a, 0x0b, 0xff]), b: Uint8Array.from([1, 2, 3]) };
    const doc = '{"h":"0a0bff","b":"AQID"}';
    expect(new TextDecoder().decode(codec.encode(rec))).toBe(doc);
    // read as base64, "0a0bff" would be 4 other bytes
    expect(codec.decode(utf8(doc))).toEqual(rec);
  });
});

describe("JSON decode errors of its own", () => {
  const codec = jsonCodec.compile(decodeTarget());
  const decodeAt = (input: Uint8Array | string): number | undefined => {
    try {
      codec.decode(typeof input === "string" ? utf8(input) : input);
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError);
      expect((e as DecodeError).format).toBe("json");
      return (e as DecodeError).offset ?? -1;
    }
    throw new Error(`accepted ${String(input)}`);
  };

  test("invalid UTF-8 inside strings: stray continuation, overlong, surrogate, truncated sequence", () => {
    const wrap = (bytes: number[]) => Uint8Array.from([...utf8('{"s":"'), ...bytes, ...utf8('"}')]);
    expect(decodeAt(wrap([0x80]))).toBe(6);
    expect(decodeAt(wrap([0x41, 0xc0, 0xaf]))).toBe(7);
    expect(decodeAt(wrap([0xed, 0xa0, 0x80]))).toBe(6);
    expect(decodeAt(wrap([0xe6, 0x97]))).toBe(6);
    expect(decodeAt(wrap([0xf4, 0x90, 0x80, 0x80]))).toBe(6);
  });

  test("layout mismatches become DecodeError: unknown key, wrong type, out of range, too long", () => {
    for (const doc of ['{"b":1}', '{"a":"x"}', '{"a":256}', '{"a":-1}', '{"s":"123456789"}', '{"a":1.5}', '{"a":true}'])
      expect(decodeAt(doc)).toBe(-1);
    // a string over its maxLength (12) in the extremes layout
    expect(() =>
      jsonCodec
        .compile(extremesJson.layout)
        .decode(utf8('{"s":"1234567890123","i":0,"u":0,"i32":0,"f":0,"d":0,"a":[]}')),
    ).toThrow(DecodeError);
  });

  test("deep nesting is refused, not a stack overflow", () => {
    expect(decodeAt(`{"a":${"[".repeat(100_000)}`)).toBeGreaterThan(0);
  });
});
