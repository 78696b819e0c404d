import { describe, expect, it } from "vitest";
import { hexToBytes } from "./commands/hex.ts";
import { parseJsonLenient, stringifyJson } from "./commands/jsonio.ts";

describe("lenient JSON in, Python-style JSON out", () => {
  it("reads Python's non-finite tokens as text fromPlain understands", () => {
    expect(parseJsonLenient('{"a": NaN, "b": [Infinity, -Infinity], "c": -1.5e3}')).toEqual({
      a: "NaN",
      b: ["Infinity", "-Infinity"],
      c: -1500,
    });
  });

  it("keeps integers beyond 2^53 exact by reading them as text", () => {
    expect(parseJsonLenient('{"u": 18446744073709551615, "s": -9223372036854775808, "ok": 9007199254740991}')).toEqual({
      u: "18446744073709551615",
      s: "-9223372036854775808",
      ok: 9007199254740991,
    });
  });

  it("leaves strings alone, escapes included", () => {
    expect(parseJsonLenient('{"t": "NaN \\" Infinity 123456789012345678901"}')).toEqual({
      t: 'NaN " Infinity 123456789012345678901',
    });
  });

  it("still rejects what is not JSON", () => {
    expect(() => parseJsonLenient("{a: 1}")).toThrow(SyntaxError);
    expect(() => parseJsonLenient('{"a": -}')).toThrow(SyntaxError);
  });

  it("writes bigints bare, non-finite floats and -0 as Python does", () => {
    expect(
      stringifyJson({
        n: 18446744073709551615n,
        f: Number.NaN,
        p: Number.POSITIVE_INFINITY,
        m: Number.NEGATIVE_INFINITY,
        z: -0,
        s: "é",
        a: [1, null, true],
      }),
    ).toBe('{"n":18446744073709551615,"f":NaN,"p":Infinity,"m":-Infinity,"z":-0.0,"s":"é","a":[1,null,true]}');
    expect(stringifyJson({ b: new Uint8Array([0, 255]) })).toBe('{"b":"AP8="}');
  });

  it("round-trips through both", () => {
    const text = '{"v":NaN,"n":18446744073709551615,"x":[-0.0,1.25]}';
    expect(parseJsonLenient(text)).toEqual({ v: "NaN", n: "18446744073709551615", x: [-0, 1.25] });
  });
});

describe("hex input", () => {
  it("accepts whitespace, colons and a 0x prefix", () => {
    expect([...hexToBytes("0xDE ad:be\nef\n")]).toEqual([0xde, 0xad, 0xbe, 0xef]);
    expect(hexToBytes("").length).toBe(0);
  });

  it("rejects non-hex and odd lengths", () => {
    expect(() => hexToBytes("zz")).toThrow("stdin is not hex (expected 0-9, a-f)");
    expect(() => hexToBytes("abc")).toThrow("stdin has an odd number of hex digits (3)");
  });
});
