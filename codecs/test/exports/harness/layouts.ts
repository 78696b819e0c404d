// The layouts the C cross-tests compile: the presets, the codec fixtures, and two that reach the
// corners the others leave out (every Struct string mode and byte order, every bit-packing charset
// and quantiser path).
import type { LayoutInput } from "../../../src/layout/schema.ts";
import { PRESETS } from "../../../src/presets/index.ts";
import { everyTypeLayout, textRepLayout } from "../../fixtures/layouts.ts";
import { protobufOptionsLayout } from "../../fixtures/protobuf-options.ts";

/** Little-endian, every string mode, 2-byte enums and counts, nested optional groups. */
export const structModesLayout: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Struct modes",
  message: "StructModes",
  struct: { endianness: "little", stringMode: "u8-appended" },
  fields: [
    { id: "a", key: "a", name: "u8 inline", type: { kind: "string", maxLength: 12 }, options: { struct: { stringMode: "u8-inline" } }, sample: { kind: "choice", values: ["", "ab", "ÄÖÜ", "twelve bytes"] } },
    { id: "b", key: "b", name: "u16 inline", type: { kind: "bytes", maxLength: 300 }, options: { struct: { stringMode: "u16-inline" } }, sample: { kind: "choice", values: [[], [0, 255], Array.from({ length: 300 }, (_, i) => i & 255)] } },
    { id: "c", key: "c", name: "fixed", type: { kind: "string", maxLength: 6 }, options: { struct: { stringMode: "fixed" } }, sample: { kind: "choice", values: ["", "x", "sixsix", "né"] } },
    { id: "d", key: "d", name: "u16 appended", type: { kind: "string", maxLength: 500 }, options: { struct: { stringMode: "u16-appended" } }, sample: { kind: "template", template: "{alpha:3}{digits:2}" } },
    { id: "e", key: "e", name: "appended array", type: { kind: "array", of: { kind: "string", maxLength: 5 }, maxCount: 4 }, sample: { kind: "elements", each: [{ kind: "choice", values: ["", "ab", "héé"] }], minCount: 0, maxCount: 4 } },
    { id: "f", key: "f", name: "time fixed", type: { kind: "timestamp", encoding: "text", textFormat: "YYYYMMDDThhmmss.sss", resolution: 0.001 }, options: { struct: { stringMode: "fixed" } }, sample: { kind: "walk", start: 1700000000.123, stepMin: 0.001, stepMax: 1000, decimals: 3 } },
    { id: "g", key: "g", name: "wide enum", type: { kind: "enum", values: [{ name: "LOW", value: 3 }, { name: "HIGH", value: 4000 }] } },
    { id: "h", key: "h", name: "many", type: { kind: "array", of: { kind: "int", bits: 8, signed: true }, maxCount: 300 }, sample: { kind: "elements", each: [{ kind: "uniform", min: -128, max: 127 }], minCount: 0, maxCount: 300 } },
    { id: "i", key: "i", name: "big fixed", type: { kind: "fixed", scale: 0.25, offset: 1000, min: 1000, max: 1e12 }, sample: { kind: "uniform", min: 1000, max: 1e12 } },
    { id: "j", key: "j", name: "ticks", type: { kind: "timestamp", encoding: "epoch", resolution: 0.1 }, sample: { kind: "walk", start: 1748778312.3, stepMin: 0.1, stepMax: 60, decimals: 1 } },
    {
      id: "k", key: "k", name: "outer", presence: "optional",
      type: {
        kind: "group",
        fields: [
          { id: "k1", key: "x", name: "x", presence: "optional", type: { kind: "float", bits: 32 } },
          { id: "k2", key: "inner", name: "inner", presence: "optional", type: { kind: "group", fields: [{ id: "k3", key: "y", name: "y", presence: "optional", type: { kind: "bool" } }] } },
        ],
      },
    },
    { id: "l", key: "l", name: "blobs", presence: "optional", type: { kind: "array", of: { kind: "bytes", maxLength: 4, fixed: true }, maxCount: 3 }, sample: { kind: "elements", each: [{ kind: "constant", value: [1, 0, 2, 0] }], minCount: 0, maxCount: 3 } },
    { id: "m", key: "m", name: "opt 9", presence: "optional", type: { kind: "int", bits: 64, signed: false } },
    { id: "n", key: "n", name: "opt 10", presence: "optional", type: { kind: "int", bits: 64, signed: true } },
  ],
};

/** Every charset, fixed and variable, quantisers with and without decimal ticks, raw IEEE, 64-bit ranges. */
export const bitsCornersLayout: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Bit corners",
  message: "BitCorners",
  fields: [
    { id: "s1", key: "alnum", name: "alnum", type: { kind: "string", maxLength: 9, charset: "alnum" }, sample: { kind: "template", template: "{alpha:2}{digits:3}" } },
    { id: "s2", key: "alnum_fixed", name: "alnum fixed", type: { kind: "string", maxLength: 5, fixed: true, charset: "alnum" }, sample: { kind: "choice", values: ["", "a", "Zz9", "abcde"] } },
    { id: "s3", key: "ascii", name: "ascii", type: { kind: "string", maxLength: 12, charset: "ascii" }, sample: { kind: "choice", values: ["", "Hello, world", "~!@#$%^&*()"] } },
    { id: "s4", key: "ascii_fixed", name: "ascii fixed", type: { kind: "string", maxLength: 4, fixed: true, charset: "ascii" }, sample: { kind: "choice", values: ["", "a b", "abcd"] } },
    { id: "s5", key: "hex", name: "hex", type: { kind: "string", maxLength: 8, charset: "hex" }, sample: { kind: "choice", values: ["", "00ff", "DEADBEEF"] } },
    { id: "s6", key: "hex_fixed", name: "hex fixed", type: { kind: "string", maxLength: 4, fixed: true, charset: "hex" }, sample: { kind: "template", template: "{hex:4}" } },
    { id: "s7", key: "digits_fixed", name: "digits fixed", type: { kind: "string", maxLength: 6, fixed: true, charset: "digits" }, sample: { kind: "choice", values: ["", "1", "123456"] } },
    { id: "s8", key: "upper_fixed", name: "upper fixed", type: { kind: "string", maxLength: 6, fixed: true, charset: "upper-alnum" }, sample: { kind: "choice", values: ["", "A-1 B", "ZZZZZZ"] } },
    { id: "s9", key: "utf8_fixed", name: "utf8 fixed", type: { kind: "string", maxLength: 7, fixed: true }, sample: { kind: "choice", values: ["", "é", "日本", "seven!!"] } },
    { id: "q1", key: "third", name: "thirds", type: { kind: "float", bits: 64, min: -1, max: 1, precision: 1 / 3 }, sample: { kind: "uniform", min: -1, max: 1 } },
    { id: "q2", key: "off_grid", name: "range not a whole number of steps", type: { kind: "float", bits: 32, min: 0, max: 1, precision: 0.3 }, sample: { kind: "uniform", min: 0, max: 1 } },
    { id: "q3", key: "raw32", name: "raw float32", type: { kind: "float", bits: 32, min: -5, max: 5 }, sample: { kind: "uniform", min: -5, max: 5 } },
    { id: "q4", key: "raw64", name: "raw float64", type: { kind: "float", bits: 64 }, sample: { kind: "normal", mean: 0, sd: 1e9 } },
    { id: "i1", key: "big", name: "int64 range", type: { kind: "int", bits: 64, signed: true, min: -1e15, max: 1e15 }, sample: { kind: "uniform", min: -1e15, max: 1e15 } },
    { id: "i2", key: "ubig", name: "uint64", type: { kind: "int", bits: 64, signed: false }, sample: { kind: "uniform", min: 0, max: 9e15 } },
    { id: "i3", key: "small", name: "int8 range", type: { kind: "int", bits: 8, signed: true, min: -3, max: 3 }, sample: { kind: "uniform", min: -3, max: 3 } },
    { id: "i4", key: "narrow", name: "one bit", type: { kind: "int", bits: 16, signed: false, min: 6, max: 7 }, sample: { kind: "choice", values: [6, 7] } },
    { id: "x1", key: "quarter", name: "fixed quarter", type: { kind: "fixed", scale: 0.25, offset: -10, min: -10, max: 10 }, sample: { kind: "uniform", min: -10, max: 10 } },
    { id: "x2", key: "third_fixed", name: "fixed thirds", type: { kind: "fixed", scale: 1 / 3, offset: 0, min: 0, max: 100 }, sample: { kind: "uniform", min: 0, max: 100 } },
    { id: "t1", key: "t_open", name: "time without range", type: { kind: "timestamp", encoding: "epoch", resolution: 0.1 }, sample: { kind: "walk", start: 1748778312.3, stepMin: 0.1, stepMax: 60, decimals: 1 } },
    { id: "t2", key: "t_min_only", name: "time from min", type: { kind: "timestamp", encoding: "epoch", resolution: 1, min: 1700000000 }, sample: { kind: "walk", start: 1700000100, stepMin: 1, stepMax: 600 } },
    { id: "e1", key: "level", name: "enum", type: { kind: "enum", values: Array.from({ length: 11 }, (_, i) => ({ name: `L${i}`, value: 100 + i * 7 })) } },
    { id: "b1", key: "blob", name: "bytes", presence: "optional", type: { kind: "bytes", maxLength: 5 }, sample: { kind: "choice", values: [[], [0], [1, 2, 3, 4, 5]] } },
    { id: "a1", key: "flags", name: "flags", type: { kind: "array", of: { kind: "bool" }, maxCount: 9 }, sample: { kind: "elements", each: [{ kind: "choice", values: [true, false] }], minCount: 0, maxCount: 9 } },
  ],
};

export const CROSS_LAYOUTS: readonly (readonly [string, LayoutInput])[] = [
  ...PRESETS.map((p) => [p.id, p.layout] as const),
  ["every type", everyTypeLayout],
  ["protobuf options", protobufOptionsLayout],
  ["text representations", textRepLayout],
  ["struct modes", structModesLayout],
  ["bit corners", bitsCornersLayout],
];
