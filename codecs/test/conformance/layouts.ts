// Layouts and records the conformance table's rows share: the decode-error layouts and the
// extremes the self-describing formats were first tested with.
import type { LayoutInput } from "../../src/layout/schema.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import type { TypedRecord } from "../../src/layout/values.ts";

const field = (id: string, type: object, presence: "required" | "optional" = "required") => ({
  id,
  key: id,
  name: id,
  presence,
  type,
});

/** Optional `a` (u8 unless wider) and `s` (up to 8 characters): what the strict-decode rows decode into. */
export function decodeTarget(a: object = { kind: "int", bits: 8, signed: false }) {
  return parseLayout({
    format: "satlayout",
    version: 1,
    name: "a",
    fields: [field("a", a, "optional"), field("s", { kind: "string", maxLength: 8 }, "optional")],
  } as LayoutInput);
}

/** Empty/long/unicode strings, empty arrays, integer limits, -0.0, NaN, ±Infinity, 300-byte values. */
export const extremes300 = {
  layout: parseLayout({
    format: "satlayout",
    version: 1,
    name: "x",
    fields: [
      field("s", { kind: "string", maxLength: 300 }),
      field("i", { kind: "int", bits: 64, signed: true }),
      field("u", { kind: "int", bits: 64, signed: false }),
      field("f", { kind: "float", bits: 32 }),
      field("d", { kind: "float", bits: 64 }),
      field("a", { kind: "array", of: { kind: "int", bits: 8, signed: true }, maxCount: 40 }),
      field("b", { kind: "bytes", maxLength: 300 }, "optional"),
    ],
  } as LayoutInput),
  records: [
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
  ] as TypedRecord[],
};

/** JSON's extremes: maximum-length strings at a short limit, 32-bit limits, the smallest double. */
export const extremesJson = {
  layout: parseLayout({
    format: "satlayout",
    version: 1,
    name: "x",
    fields: [
      field("s", { kind: "string", maxLength: 12 }),
      field("i", { kind: "int", bits: 64, signed: true }),
      field("u", { kind: "int", bits: 64, signed: false }),
      field("i32", { kind: "int", bits: 32, signed: true }),
      field("f", { kind: "float", bits: 32 }),
      field("d", { kind: "float", bits: 64 }),
      field("a", { kind: "array", of: { kind: "int", bits: 8, signed: true }, maxCount: 3 }),
    ],
  } as LayoutInput),
  records: [
    { s: "", i: -(2n ** 63n), u: 2n ** 64n - 1n, i32: -2147483648, f: -0, d: -0, a: [] },
    { s: "🚢🚢🚢", i: 2n ** 63n - 1n, u: 0n, i32: 2147483647, f: Number.NaN, d: Number.NaN, a: [-128, 127, 0] },
    {
      s: "123456789012",
      i: 0n,
      u: 9007199254740993n,
      i32: 0,
      f: Number.POSITIVE_INFINITY,
      d: Number.NEGATIVE_INFINITY,
      a: [1],
    },
    { s: '\u2028"\\\u0000', i: -1n, u: 1n, i32: -1, f: 3.4028234663852886e38, d: 5e-324, a: [] },
  ] as TypedRecord[],
};

/** One required string `s` (up to 8 characters), or `v` for PSON's row. */
export const oneString = (id: string) =>
  parseLayout({
    format: "satlayout",
    version: 1,
    name: "s",
    fields: [field(id, { kind: "string", maxLength: 8 })],
  } as LayoutInput);
