// decode(encode(r)) == r for every format, over layouts varied from the every-type fixture and values across each type's domain.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EncodeError } from "../src/errors.ts";
import { bitpackedPlan, type BitpackedFieldPlan } from "../src/formats/bitpacked.ts";
import { CODECS } from "../src/formats/registry.ts";
import { FORMAT_IDS, type EncodedWithSpans, type FormatId } from "../src/formats/types.ts";
import type { Field, FieldType, Layout, ScalarType } from "../src/layout/schema.ts";
import { intLimits, parseLayout } from "../src/layout/validate.ts";
import type { FieldValue, ScalarValue, TypedRecord } from "../src/layout/values.ts";
import { utf8Length } from "../src/text/bytes.ts";
import { checkScalar } from "../src/text/check.ts";
import { toFloat32 } from "../src/text/numbers.ts";
import { formatResolution } from "../src/text/timestamp.ts";
import { quantiseTime } from "../src/layout/timeTicks.ts";
import { everyTypeLayout } from "./fixtures/layouts.ts";
import { fixedPoint } from "../src/layout/fixedPoint.ts";

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

function scalarVariant(t: ScalarType | Extract<TypeIn, { kind: "string" | "bytes" | "float" | "int" }>): fc.Arbitrary<TypeIn> {
  switch (t.kind) {
    case "string":
      return fc.record({ charset: fc.constantFrom(...CHARSETS), fixed: fc.boolean(), maxLength: fc.integer({ min: 0, max: 24 }) }).map((v) => ({ kind: "string" as const, ...v }));
    case "bytes":
      return fc.record({ fixed: fc.boolean(), maxLength: fc.integer({ min: 0, max: 10 }) }).map((v) => ({ kind: "bytes" as const, ...v }));
    case "float":
      return fc.record({ bits: fc.constantFrom(32 as const, 64 as const), range: fc.constantFrom(...FLOAT_RANGES) }).map(({ bits, range }) => ({ kind: "float" as const, bits, ...range }));
    case "int": {
      if (t.bits === 64) {
        const safe = Number.MAX_SAFE_INTEGER;
        return fc.option(fc.tuple(fc.integer({ min: t.signed ? -safe : 0, max: safe }), fc.integer({ min: t.signed ? -safe : 0, max: safe })), { nil: undefined }).map((r) =>
          r && r[0] !== r[1] ? { ...t, min: Math.min(...r), max: Math.max(...r) } : { kind: "int" as const, bits: t.bits, signed: t.signed },
        );
      }
      const [lo, hi] = intLimits(t.bits, t.signed);
      return fc.option(fc.tuple(fc.integer({ min: lo, max: hi }), fc.integer({ min: lo, max: hi })), { nil: undefined }).map((r) =>
        r && r[0] !== r[1] ? { kind: "int" as const, bits: t.bits, signed: t.signed, min: Math.min(...r), max: Math.max(...r) } : { kind: "int" as const, bits: t.bits, signed: t.signed },
      );
    }
    default:
      return fc.constant(t as TypeIn);
  }
}

function typeVariant(t: TypeIn): fc.Arbitrary<TypeIn> {
  if (t.kind === "group") return fieldsVariant(t.fields as FieldIn[]).map((fields) => ({ kind: "group" as const, fields: fields as Field[] }));
  if (t.kind === "array")
    return fc.record({ of: scalarVariant(t.of as ScalarType), maxCount: fc.integer({ min: 0, max: 6 }), fixed: fc.boolean() }).map((v) => ({ kind: "array" as const, ...v, of: v.of as ScalarType }));
  return scalarVariant(t as ScalarType);
}

function fieldsVariant(fields: readonly FieldIn[]): fc.Arbitrary<FieldIn[]> {
  return fc
    .tuple(...fields.map((f) => fc.record({ keep: fc.integer({ min: 0, max: 9 }), optional: fc.boolean(), type: typeVariant(f.type) })))
    .map((choices) =>
      fields.flatMap((f, i) => {
        const c = choices[i]!;
        if (c.keep === 0) return [];
        const { sample: _unused, ...rest } = f;
        return [{ ...rest, presence: c.optional ? ("optional" as const) : ("required" as const), type: c.type }];
      }),
    );
}

const layoutArb: fc.Arbitrary<Layout> = fieldsVariant(everyTypeLayout.fields as FieldIn[]).map((fields) => parseLayout({ ...everyTypeLayout, fields }));

// ---- records: values across each type's domain, extremes included ----

const range = (from: string, to: string): string[] => Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) => String.fromCharCode(from.charCodeAt(0) + i));
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
    arb = fc.oneof(any.map((s) => fitUtf8(s, max)), any.map((s) => fillUtf8(s, max)), fc.constantFrom(...SPECIAL_TEXT).map((s) => fitUtf8(s, max)));
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
      const ranged = t.min !== undefined && t.max !== undefined ? fc.double({ min: t.min, max: t.max, noNaN: true }) : fc.double();
      const special = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0);
      const decimal = t.precision !== undefined && t.min !== undefined && t.max !== undefined ? fc.integer({ min: 0, max: Math.round((t.max - t.min) / t.precision) }).map((q) => Math.min(t.max!, t.min! + q * t.precision!)) : ranged;
      arb = fc.oneof({ arbitrary: ranged, weight: 4 }, { arbitrary: special, weight: 1 }, { arbitrary: decimal, weight: 3 }).map((x) => (t.bits === 32 ? toFloat32(x) : x));
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

function recordArb(fields: readonly Field[]): fc.Arbitrary<TypedRecord> {
  const arbs = fields.map((f): fc.Arbitrary<FieldValue | undefined> => {
    const t = f.type;
    const a: fc.Arbitrary<FieldValue> =
      t.kind === "group" ? recordArb(t.fields) : t.kind === "array" ? fc.array(scalarArb(t.of), { minLength: t.fixed ? t.maxCount : 0, maxLength: t.maxCount }) : scalarArb(t);
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

const caseArb = layoutArb.chain((layout) => fc.tuple(fc.constant(layout), fc.array(recordArb(layout.fields), { minLength: 1, maxLength: 6 })));

// ---- comparing a decoded record with the original ----

interface Tolerance {
  /** worst bit-packed error per field path; absent = exact */
  error: Map<string, number>;
  /** bit-packed hex strings come back upper case */
  foldHex: boolean;
}

function planErrors(fields: BitpackedFieldPlan[], out: Map<string, number>): Map<string, number> {
  for (const f of fields) {
    if (f.maxError > 0) out.set(f.path, f.maxError);
    if (f.fields) planErrors(f.fields, out);
  }
  return out;
}

function sameScalar(t: ScalarType, a: ScalarValue, b: ScalarValue, tol: number, foldHex: boolean): boolean {
  switch (t.kind) {
    case "float":
    case "fixed":
    case "timestamp": {
      if (typeof a !== "number" || typeof b !== "number") return false;
      if (tol > 0) return Math.abs(a - b) <= tol;
      return t.kind === "float" && t.bits === 32 ? Object.is(toFloat32(a), toFloat32(b)) : Object.is(a, b);
    }
    case "bytes":
      return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
    case "string":
      return foldHex && t.charset === "hex" && typeof a === "string" ? a.toUpperCase() === b : a === b;
    default:
      return a === b;
  }
}

function describeValue(v: unknown): string {
  if (v instanceof Uint8Array) return `bytes[${[...v].join(",")}]`;
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number" && Object.is(v, -0)) return "-0";
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? [...x] : typeof x === "number" && !Number.isFinite(x) ? String(x) : x));
}

/** undefined when equal, else the first difference. */
function difference(fields: readonly Field[], a: TypedRecord, b: TypedRecord, idPath: string, keyPath: string, tol: Tolerance): string | undefined {
  for (const k of Object.keys(b)) if (!fields.some((f) => f.key === k)) return `${keyPath}${k}: unexpected key in the decoded record`;
  for (const f of fields) {
    const path = idPath ? `${idPath}/${f.id}` : f.id;
    const at = `${keyPath}${f.key}`;
    const x = a[f.key];
    const y = b[f.key];
    if (x === undefined || y === undefined) {
      if (x !== y) return `${at}: ${describeValue(x)} came back as ${describeValue(y)}`;
      continue;
    }
    const t = f.type;
    const e = tol.error.get(path) ?? 0;
    if (t.kind === "group") {
      const d = difference(t.fields, x as TypedRecord, y as TypedRecord, path, `${at}.`, tol);
      if (d) return d;
    } else if (t.kind === "array") {
      const xs = x as ScalarValue[];
      const ys = y as ScalarValue[];
      if (!Array.isArray(ys) || xs.length !== ys.length) return `${at}: ${describeValue(xs)} came back as ${describeValue(ys)}`;
      for (let i = 0; i < xs.length; i++) if (!sameScalar(t.of, xs[i]!, ys[i]!, e, tol.foldHex)) return `${at}[${i}]: ${describeValue(xs[i])} came back as ${describeValue(ys[i])}`;
    } else if (!sameScalar(t, x as ScalarValue, y as ScalarValue, e, tol.foldHex)) return `${at}: ${describeValue(x)} came back as ${describeValue(y)}${e ? ` (allowed error ${e})` : ""}`;
  }
  return undefined;
}

/**
 * Records a format refuses by design, with EncodeError, as this test models them (independently of
 * the encoders). Bit-packing: non-finite floats, and fixed hex strings shorter than maxLength (its
 * alphabet has no pad symbol). Protobuf: an empty optional array (proto3 repeated fields have no
 * presence). SBE: an optional value equal to its slot's null value (docs/design/sbe-mapping.md).
 */
const REFUSES: Partial<Record<FormatId, (fields: readonly Field[], rec: TypedRecord) => boolean>> = {
  bitpacked: (fields, rec) => !bitpackable(fields, rec),
  protobuf: (fields, rec) => hasEmptyOptionalArray(fields, rec),
  sbe: (fields, rec) => sbeNullClash(fields, rec),
};

/**
 * What a format's refusal says when the model above did not predict it: allowed, but at most
 * MAX_UNPREDICTED_REFUSALS of the records the model expects to encode may be refused this way,
 * so a regression that refuses most records fails.
 */
const REFUSAL_MESSAGES: Partial<Record<FormatId, RegExp>> = {
  sbe: /reads back as (absent|an absent group)$/,
  protobuf: /an empty optional array reads back as absent/,
};
const MAX_UNPREDICTED_REFUSALS = 0.05;

function hasEmptyOptionalArray(fields: readonly Field[], rec: TypedRecord): boolean {
  return fields.some((f) => {
    const v = rec[f.key];
    if (v === undefined) return false;
    if (f.type.kind === "group") return hasEmptyOptionalArray(f.type.fields, v as TypedRecord);
    return f.type.kind === "array" && f.presence === "optional" && (v as ScalarValue[]).length === 0;
  });
}

/** Whether an SBE slot of this scalar type holding `v` reads back as null (the null values of the SBE spec). */
function sbeScalarIsNull(t: ScalarType, v: ScalarValue): boolean {
  switch (t.kind) {
    case "float":
      return Number.isNaN(v as number);
    case "int":
      if (t.bits === 64) return t.signed ? v === -(1n << 63n) : v === (1n << 64n) - 1n;
      return t.signed ? v === -(2 ** (t.bits - 1)) : v === 2 ** t.bits - 1;
    case "timestamp":
      return t.encoding === "epoch" && v === 4294967295;
    case "string":
      return (v as string).length === 0 || t.maxLength === 0;
    case "bytes":
      return t.maxLength === 0 || (v as Uint8Array).length === 0 || (t.fixed && (v as Uint8Array).every((b) => b === 0xff));
    default:
      return false;
  }
}

function sbeAllNull(fields: readonly Field[], rec: TypedRecord): boolean {
  return fields.every((f) => {
    const v = rec[f.key];
    if (v === undefined) return true;
    const t = f.type;
    if (t.kind === "group") return sbeAllNull(t.fields, v as TypedRecord);
    if (t.kind === "array") return (v as ScalarValue[]).every((x) => sbeScalarIsNull(t.of, x));
    return sbeScalarIsNull(t, v as ScalarValue);
  });
}

function sbeNullClash(fields: readonly Field[], rec: TypedRecord): boolean {
  return fields.some((f) => {
    const v = rec[f.key];
    if (v === undefined) return false;
    const t = f.type;
    if (t.kind === "group") return (f.presence === "optional" && sbeAllNull(t.fields, v as TypedRecord)) || sbeNullClash(t.fields, v as TypedRecord);
    if (f.presence !== "optional") return false;
    if (t.kind === "array") return (v as ScalarValue[]).every((x) => sbeScalarIsNull(t.of, x));
    return sbeScalarIsNull(t, v as ScalarValue);
  });
}

function bitpackable(fields: readonly Field[], rec: TypedRecord): boolean {
  const scalarOk = (t: ScalarType, v: ScalarValue): boolean => {
    if (t.kind === "float") return Number.isFinite(v as number);
    if (t.kind === "string" && t.charset === "hex" && t.fixed) return (v as string).length === t.maxLength;
    return true;
  };
  return fields.every((f) => {
    const v = rec[f.key];
    if (v === undefined) return true;
    const t = f.type;
    if (t.kind === "group") return bitpackable(t.fields, v as TypedRecord);
    if (t.kind === "array") return (v as ScalarValue[]).every((x) => scalarOk(t.of, x));
    return scalarOk(t, v as ScalarValue);
  });
}

// ---- spans ----

function fieldPaths(fields: readonly Field[], parent = "", out = new Set<string>([""])): Set<string> {
  for (const f of fields) {
    const p = parent ? `${parent}/${f.id}` : f.id;
    out.add(p);
    if (f.type.kind === "group") fieldPaths(f.type.fields, p, out);
  }
  return out;
}

function spanProblem(enc: EncodedWithSpans, paths: Set<string>, what: string): string | undefined {
  let at = 0;
  for (const s of enc.spans) {
    if (s.start !== at || s.end <= s.start) return `${what}: span ${JSON.stringify(s)} does not continue at byte ${at}`;
    if (!paths.has(s.field)) return `${what}: span names unknown field "${s.field}"`;
    if (!["value", "key", "length", "framing"].includes(s.role)) return `${what}: unknown role ${s.role}`;
    at = s.end;
  }
  if (at !== enc.bytes.length) return `${what}: spans end at ${at}, bytes at ${enc.bytes.length}`;
  return enc.uncompressed ? spanProblem(enc.uncompressed, paths, `${what} (uncompressed)`) : undefined;
}

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

// ---- the properties ----

describe("every format round-trips random layouts and records", () => {
  it("the every-type fixture compiles in every format", () => {
    const layout = parseLayout(everyTypeLayout);
    for (const format of FORMAT_IDS) expect(() => CODECS[format].compile(layout), format).not.toThrow();
  });

  for (const format of FORMAT_IDS) {
    it(`${format}: decode(encode(r)) equals r, spans cover the bytes`, () => {
      const codec = CODECS[format];
      const refuses = REFUSES[format];
      let records = 0;
      let refused = 0;
      let unpredicted = 0;
      fc.assert(
        fc.property(caseArb, ([layout, recs]) => {
          const c = codec.compile(layout);
          const tol: Tolerance = format === "bitpacked" ? { error: planErrors(bitpackedPlan(layout).fields, new Map()), foldHex: true } : { error: new Map(), foldHex: false };
          const paths = fieldPaths(layout.fields);
          for (const rec of recs) {
            records++;
            if (refuses?.(layout.fields, rec)) {
              refused++;
              expect(() => c.encode(rec), `${format} encodes a record the test models as refused`).toThrow(EncodeError);
              continue;
            }
            let bytes: Uint8Array;
            try {
              bytes = c.encode(rec);
            } catch (e) {
              const allowed = REFUSAL_MESSAGES[format];
              if (allowed && e instanceof EncodeError && allowed.test(e.message)) {
                unpredicted++;
                continue;
              }
              throw e;
            }
            const back = c.decode(bytes);
            const d = difference(layout.fields, rec, back, "", "", tol);
            if (d) throw new Error(`${format}: ${d}`);
            const withSpans = c.encodeWithSpans(rec);
            if (!equalBytes(withSpans.bytes, bytes)) throw new Error(`${format}: encodeWithSpans bytes differ from encode`);
            const p = spanProblem(withSpans, paths, format);
            if (p) throw new Error(p);
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
      const expected = records - refused;
      console.log(`${format}: ${records} records over ${RUNS} layouts, ${refused} refusable by design, ${expected - unpredicted} round-tripped, ${unpredicted} refused unpredicted`);
      expect(expected).toBeGreaterThanOrEqual(RUNS);
      expect(unpredicted / expected, `${format} refused ${unpredicted} of the ${expected} records the test expects it to encode`).toBeLessThanOrEqual(MAX_UNPREDICTED_REFUSALS);
    });
  }
});
