// decode(encode(r)) == r for every format, over layouts varied from the every-type fixture and values across each type's domain.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EncodeError } from "../src/errors.ts";
import { everyTypeLayout } from "./fixtures/layouts.ts";
import { caseArb } from "./helpers/randomCases.ts";
import { bitpackedPlan, type BitpackedFieldPlan } from "../src/formats/bitpacked/codec.ts";
import { CODECS, FORMAT_IDS, type FormatId } from "../src/formats/registry.ts";
import { type EncodedWithSpans } from "../src/formats/types.ts";
import type { Field, ScalarType } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { ScalarValue, TypedRecord } from "../src/layout/values.ts";
import { toFloat32 } from "../src/text/numbers.ts";

const SEED = 20260214;
const RUNS = 100;

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
      return (
        a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i])
      );
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
  return JSON.stringify(v, (_k, x: unknown) =>
    typeof x === "bigint"
      ? `${x}n`
      : x instanceof Uint8Array
        ? [...x]
        : typeof x === "number" && !Number.isFinite(x)
          ? String(x)
          : x,
  );
}

/** undefined when equal, else the first difference. */
function difference(
  fields: readonly Field[],
  a: TypedRecord,
  b: TypedRecord,
  idPath: string,
  keyPath: string,
  tol: Tolerance,
): string | undefined {
  for (const k of Object.keys(b))
    if (!fields.some((f) => f.key === k)) return `${keyPath}${k}: unexpected key in the decoded record`;
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
      if (!Array.isArray(ys) || xs.length !== ys.length)
        return `${at}: ${describeValue(xs)} came back as ${describeValue(ys)}`;
      for (let i = 0; i < xs.length; i++)
        if (!sameScalar(t.of, xs[i]!, ys[i]!, e, tol.foldHex))
          return `${at}[${i}]: ${describeValue(xs[i])} came back as ${describeValue(ys[i])}`;
    } else if (!sameScalar(t, x as ScalarValue, y as ScalarValue, e, tol.foldHex))
      return `${at}: ${describeValue(x)} came back as ${describeValue(y)}${e ? ` (allowed error ${e})` : ""}`;
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
      return (
        t.maxLength === 0 || (v as Uint8Array).length === 0 || (t.fixed && (v as Uint8Array).every((b) => b === 0xff))
      );
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
    if (t.kind === "group")
      return (
        (f.presence === "optional" && sbeAllNull(t.fields, v as TypedRecord)) ||
        sbeNullClash(t.fields, v as TypedRecord)
      );
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
          const tol: Tolerance =
            format === "bitpacked"
              ? { error: planErrors(bitpackedPlan(layout).fields, new Map()), foldHex: true }
              : { error: new Map(), foldHex: false };
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
            if (!equalBytes(withSpans.bytes, bytes))
              throw new Error(`${format}: encodeWithSpans bytes differ from encode`);
            const p = spanProblem(withSpans, paths, format);
            if (p) throw new Error(p);
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
      const expected = records - refused;
      console.log(
        `${format}: ${records} records over ${RUNS} layouts, ${refused} refusable by design, ${expected - unpredicted} round-tripped, ${unpredicted} refused unpredicted`,
      );
      expect(expected).toBeGreaterThanOrEqual(RUNS);
      expect(
        unpredicted / expected,
        `${format} refused ${unpredicted} of the ${expected} records the test expects it to encode`,
      ).toBeLessThanOrEqual(MAX_UNPREDICTED_REFUSALS);
    });
  }
});
