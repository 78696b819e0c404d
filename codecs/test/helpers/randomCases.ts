// Random layouts (the every-type fixture with fields dropped, made optional and re-parameterised) and records across
// each type's domain: the generator the codec property tests share.
import fc from "fast-check";
import { fixedPoint } from "../../src/layout/fixedPoint.ts";
import type { Field, FieldType, Layout, ScalarType } from "../../src/layout/schema.ts";
import { quantiseTime } from "../../src/layout/timeTicks.ts";
import { intLimits, parseLayout } from "../../src/layout/validate.ts";
import type { FieldValue, ScalarValue, TypedRecord } from "../../src/layout/values.ts";
import { utf8Length } from "../../src/text/bytes.ts";
import { checkScalar } from "../../src/text/check.ts";
import { toFloat32 } from "../../src/text/numbers.ts";
import { formatResolution } from "../../src/text/timestamp.ts";
import { everyTypeLayout } from "../fixtures/layouts.ts";

// the fixture is layout *input* (defaults not yet applied); parseLayout fills them in
type FieldIn = Field;
type TypeIn = FieldType;

const SEED = 20260214;
const RUNS = 100;

// ---- layouts: the every-type fixture with fields dropped, made optional and re-parameterised ----

const CHARSETS = ["utf8", "ascii", "digits", "hex", "upper-alnum", "alnum"] as const;
const FLOAT_RANGES = [
  {},
  { min: -40, max: 85 },
  { min: -40, max: 85, precision: 0.01 },
  { min: -2000, max: 2000, precision: 0.0001 },
  { min: 0, max: 1.08, precision: 0.3 },
  // a grid too fine for any width: bit-packing falls back to raw IEEE bits
  { min: -1e6, max: 1e6, precision: 1e-12 },
];

function scalarVariant(
  t: ScalarType | Extract<TypeIn, { kind: "string" | "bytes" | "float" | "int" }>,
): fc.Arbitrary<TypeIn> {
  switch (t.kind) {
    case "string":
      return fc
        .record({
          charset: fc.constantFrom(...CHARSETS),
          fixed: fc.boolean(),
          maxLength: fc.integer({ min: 0, max: 24 }),
        })
        .map((v) => ({ kind: "string" as const, ...v }));
    case "bytes":
      return fc
        .record({ fixed: fc.boolean(), maxLength: fc.integer({ min: 0, max: 10 }) })
        .map((v) => ({ kind: "bytes" as const, ...v }));
    case "float":
      return fc
        .record({ bits: fc.constantFrom(32 as const, 64 as const), range: fc.constantFrom(...FLOAT_RANGES) })
        .map(({ bits, range }) => ({ kind: "float" as const, bits, ...range }));
    case "int": {
      if (t.bits === 64) {
        const safe = Number.MAX_SAFE_INTEGER;
        return fc
          .option(
            fc.tuple(
              fc.integer({ min: t.signed ? -safe : 0, max: safe }),
              fc.integer({ min: t.signed ? -safe : 0, max: safe }),
            ),
            { nil: undefined },
          )
          .map((r) =>
            r && r[0] !== r[1]
              ? { ...t, min: Math.min(...r), max: Math.max(...r) }
              : { kind: "int" as const, bits: t.bits, signed: t.signed },
          );
      }
      const [lo, hi] = intLimits(t.bits, t.signed);
      return fc
        .option(fc.tuple(fc.integer({ min: lo, max: hi }), fc.integer({ min: lo, max: hi })), { nil: undefined })
        .map((r) =>
          r && r[0] !== r[1]
            ? { kind: "int" as const, bits: t.bits, signed: t.signed, min: Math.min(...r), max: Math.max(...r) }
            : { kind: "int" as const, bits: t.bits, signed: t.signed },
        );
    }
    default:
      return fc.constant(t as TypeIn);
  }
}

function typeVariant(t: TypeIn): fc.Arbitrary<TypeIn> {
  if (t.kind === "group")
    return fieldsVariant(t.fields as FieldIn[]).map((fields) => ({
      kind: "group" as const,
      fields: fields as Field[],
    }));
  if (t.kind === "array")
    return fc
      .record({ of: scalarVariant(t.of as ScalarType), maxCount: fc.integer({ min: 0, max: 6 }), fixed: fc.boolean() })
      .map((v) => ({ kind: "array" as const, ...v, of: v.of as ScalarType }));
  return scalarVariant(t as ScalarType);
}

function fieldsVariant(fields: readonly FieldIn[]): fc.Arbitrary<FieldIn[]> {
  return fc
    .tuple(
      ...fields.map((f) =>
        fc.record({ keep: fc.integer({ min: 0, max: 9 }), optional: fc.boolean(), type: typeVariant(f.type) }),
      ),
    )
    .map((choices) =>
      fields.flatMap((f, i) => {
        const c = choices[i]!;
        if (c.keep === 0) return [];
        const { sample: _unused, ...rest } = f;
        return [{ ...rest, presence: c.optional ? ("optional" as const) : ("required" as const), type: c.type }];
      }),
    );
}

export const layoutArb: fc.Arbitrary<Layout> = fieldsVariant(everyTypeLayout.fields as FieldIn[]).map((fields) =>
  parseLayout({ ...everyTypeLayout, fields }),
);

// ---- records: values across each type's domain, extremes included ----

const range = (from: string, to: string): string[] =>
  Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) =>
    String.fromCharCode(from.charCodeAt(0) + i),
  );
const CHARSET_CHARS: Record<string, string[]> = {
  ascii: range(" ", "~"),
  digits: range("0", "9"),
  hex: [...range("0", "9"), ...range("A", "F"), ...range("a", "f")],
  "upper-alnum": [...range("0", "9"), ...range("A", "Z"), " ", "-"],
  alnum: [...range("0", "9"), ...range("A", "Z"), ...range("a", "z")],
};

/** Longest prefix (whole code points) that fits in maxBytes of UTF-8. */
function fitUtf8(s: string, maxBytes: number): string {
  let out = "";
  for (const cp of s) {
    if (utf8Length(out + cp) > maxBytes) break;
    out += cp;
  }
  return out;
}

function fillUtf8(s: string, maxBytes: number): string {
  let out = fitUtf8(s, maxBytes);
  while (utf8Length(out) + 2 <= maxBytes) out += "é";
  while (utf8Length(out) < maxBytes) out += "a";
  return out;
}

const SPECIAL_TEXT = ["", "\uFEFFbom first", "🚢", "\u{10FFFF}", "a\u0000b", "ok ", "日本語"];

function stringArb(t: Extract<ScalarType, { kind: "string" }>): fc.Arbitrary<string> {
  const max = t.maxLength;
  const chars = CHARSET_CHARS[t.charset];
  let arb: fc.Arbitrary<string>;
  if (chars) {
    const unit = fc.constantFrom(...chars);
    arb = fc.oneof(fc.string({ unit, maxLength: max }), fc.string({ unit, minLength: max, maxLength: max }));
  } else {
    const any = fc.string({ unit: "binary", maxLength: max });
    arb = fc.oneof(
      any.map((s) => fitUtf8(s, max)),
      any.map((s) => fillUtf8(s, max)),
      fc.constantFrom(...SPECIAL_TEXT).map((s) => fitUtf8(s, max)),
    );
  }
  // fixed strings are NUL padded in the fixed-layout formats: a NUL of their own cannot come back
  return t.fixed ? arb.map((s) => s.replace(/\0/g, "")) : arb;
}

function scalarArb(t: ScalarType): fc.Arbitrary<ScalarValue> {
  let arb: fc.Arbitrary<ScalarValue>;
  switch (t.kind) {
    case "bool":
      arb = fc.boolean();
      break;
    case "enum":
      arb = fc.constantFrom(...t.values.map((v) => v.name));
      break;
    case "int":
      if (t.bits === 64) {
        const lo = t.min !== undefined ? BigInt(t.min) : t.signed ? -(1n << 63n) : 0n;
        const hi = t.max !== undefined ? BigInt(t.max) : t.signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
        arb = fc.bigInt({ min: lo, max: hi });
      } else {
        const [lo, hi] = intLimits(t.bits, t.signed);
        arb = fc.integer({ min: t.min ?? lo, max: t.max ?? hi });
      }
      break;
    case "float": {
      const ranged =
        t.min !== undefined && t.max !== undefined ? fc.double({ min: t.min, max: t.max, noNaN: true }) : fc.double();
      const special = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0);
      const decimal =
        t.precision !== undefined && t.min !== undefined && t.max !== undefined
          ? fc
              .integer({ min: 0, max: Math.round((t.max - t.min) / t.precision) })
              .map((q) => Math.min(t.max!, t.min! + q * t.precision!))
          : ranged;
      arb = fc
        .oneof({ arbitrary: ranged, weight: 4 }, { arbitrary: special, weight: 1 }, { arbitrary: decimal, weight: 3 })
        .map((x) => (t.bits === 32 ? toFloat32(x) : x));
      break;
    }
    case "fixed": {
      const lo = Math.ceil((t.min - t.offset) / t.scale - 1e-9);
      const hi = Math.floor((t.max - t.offset) / t.scale + 1e-9);
      const fp = fixedPoint(t);
      arb = fc.integer({ min: lo, max: hi }).map((raw) => fp.fromRaw(raw));
      break;
    }
    case "timestamp": {
      const res = t.encoding === "text" && t.textFormat ? formatResolution(t.textFormat) : t.resolution;
      // without a range: the 32-bit-seconds window every format can carry (1970–2106)
      const lo = t.min ?? 0;
      const hi = t.max ?? 4294967295;
      arb = fc.integer({ min: 0, max: Math.floor((hi - lo) / res) }).map((k) => quantiseTime(lo + k * res, res));
      break;
    }
    case "string":
      arb = stringArb(t);
      break;
    case "bytes":
      arb = fc.uint8Array({ minLength: t.fixed ? t.maxLength : 0, maxLength: t.maxLength });
      break;
  }
  return arb.filter((v) => {
    try {
      checkScalar(t, v, "");
      return true;
    } catch {
      return false;
    }
  });
}

export function recordArb(fields: readonly Field[]): fc.Arbitrary<TypedRecord> {
  const arbs = fields.map((f): fc.Arbitrary<FieldValue | undefined> => {
    const t = f.type;
    const a: fc.Arbitrary<FieldValue> =
      t.kind === "group"
        ? recordArb(t.fields)
        : t.kind === "array"
          ? fc.array(scalarArb(t.of), { minLength: t.fixed ? t.maxCount : 0, maxLength: t.maxCount })
          : scalarArb(t);
    return f.presence === "optional" ? fc.option(a, { nil: undefined, freq: 3 }) : a;
  });
  return fc.tuple(...arbs).map((values) => {
    const rec: TypedRecord = {};
    fields.forEach((f, i) => {
      if (values[i] !== undefined) rec[f.key] = values[i]!;
    });
    return rec;
  });
}

export const caseArb: fc.Arbitrary<[Layout, TypedRecord[]]> = layoutArb.chain((layout) =>
  fc.tuple(fc.constant(layout), fc.array(recordArb(layout.fields), { minLength: 1, maxLength: 6 })),
);
