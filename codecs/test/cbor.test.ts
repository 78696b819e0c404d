// CBOR's own wire details: which head and width each value gets. What every format must do (round
// trip, error mapping, the sensor record's cbor2 bytes, cbor-x pieces, strict decoding) is a row of
// conformance/table.ts.
import { describe, expect, test } from "vitest";
import { cborCodec } from "../src/formats/cbor/codec.ts";
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
/** The value's bytes alone: the span the walk attributes to field "v". */
function valueHex(codec: ReturnType<typeof cborCodec.compile>, v: TypedRecord[string]): string {
  const { bytes, spans } = codec.encodeWithSpans({ v });
  const s = spans.find((x) => x.role === "value")!;
  return hex(bytes.subarray(s.start, s.end));
}

describe("CBOR heads and widths (bytes as Python cbor2.dumps writes them)", () => {
  test("integers take the shortest head, 64-bit values included", () => {
    const u = cborCodec.compile(oneField({ kind: "int", bits: 64, signed: false }));
    const cases: [bigint, string][] = [
      [0n, "00"],
      [23n, "17"],
      [24n, "1818"],
      [255n, "18ff"],
      [256n, "190100"],
      [65535n, "19ffff"],
      [65536n, "1a00010000"],
      [4294967295n, "1affffffff"],
      [4294967296n, "1b0000000100000000"],
      [18446744073709551615n, "1bffffffffffffffff"],
    ];
    for (const [v, h] of cases) expect(valueHex(u, v), String(v)).toBe(h);
    const i = cborCodec.compile(oneField({ kind: "int", bits: 64, signed: true }));
    const neg: [bigint, string][] = [
      [-1n, "20"],
      [-24n, "37"],
      [-25n, "3818"],
      [-256n, "38ff"],
      [-257n, "390100"],
      [-4294967296n, "3affffffff"],
      [-4294967297n, "3b0000000100000000"],
      [-9223372036854775808n, "3b7fffffffffffffff"],
    ];
    for (const [v, h] of neg) expect(valueHex(i, v), String(v)).toBe(h);
  });

  test("float fields keep their width even for whole values; non-finite doubles are half floats as cbor2 writes them", () => {
    const f32 = cborCodec.compile(oneField({ kind: "float", bits: 32 }));
    expect(valueHex(f32, 20)).toBe("fa41a00000");
    expect(valueHex(f32, -0)).toBe("fa80000000");
    expect(valueHex(f32, Number.NaN)).toBe("fa7fc00000");
    expect(valueHex(f32, Number.NEGATIVE_INFINITY)).toBe("faff800000");
    const f64 = cborCodec.compile(oneField({ kind: "float", bits: 64 }));
    expect(valueHex(f64, 20)).toBe("fb4034000000000000");
    expect(valueHex(f64, -0)).toBe("fb8000000000000000");
    expect(valueHex(f64, Number.NaN)).toBe("f97e00");
    expect(valueHex(f64, Number.POSITIVE_INFINITY)).toBe("f97c00");
    expect(valueHex(f64, Number.NEGATIVE_INFINITY)).toBe("f9fc00");
    const ts = cborCodec.compile(oneField({ kind: "timestamp", encoding: "epoch", resolution: 0.5 }));
    expect(valueHex(ts, 1767225600)).toBe("1a6955b900");
    expect(valueHex(ts, 4294967296)).toBe("1b0000000100000000");
    expect(valueHex(ts, 1767225600.5)).toBe("fb41da556e40200000");
  });

  test("strings and byte strings: length heads at 23/24 and 255/256", () => {
    const s = cborCodec.compile(oneField({ kind: "string", maxLength: 300 }));
    expect(valueHex(s, "")).toBe("60");
    expect(valueHex(s, "a".repeat(23))).toBe(`77${"61".repeat(23)}`);
    expect(valueHex(s, "a".repeat(24))).toBe(`7818${"61".repeat(24)}`);
    expect(valueHex(s, "é".repeat(128))).toBe(`790100${"c3a9".repeat(128)}`);
    const b = cborCodec.compile(oneField({ kind: "bytes", maxLength: 300 }));
    expect(valueHex(b, new Uint8Array(0))).toBe("40");
    expect(valueHex(b, new Uint8Array(255))).toBe(`58ff${"00".repeat(255)}`);
    expect(valueHex(b, new Uint8Array(256))).toBe(`590100${"00".repeat(256)}`);
  });
});
