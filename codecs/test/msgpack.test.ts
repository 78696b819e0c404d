// MessagePack's own wire details: which form and width each value gets. What every format must do
// (round trip, error mapping, the sensor record's msgpack bytes, library pieces, strict decoding) is
// a row of conformance/table.ts.
import { describe, expect, test } from "vitest";
import { msgpackCodec } from "../src/formats/msgpack/codec.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
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

describe("MessagePack forms and widths (bytes as Python msgpack.packb writes them)", () => {
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
