// What a Kaitai parser built from our .ksy must read from our bytes, field id by field id, computed
// from the SOURCE record. Struct: wire values by this file's own reading of
// docs/design/struct-mapping.md (codes, fixed-point raws, ticks, text timestamps), no codec import.
// Bit-packed: the codec's plan (layoutSpecs) only says which fields exist and whether a float is
// quantised or raw IEEE; every integer (enum index, offset int, fixed raw, quantised step, charset
// symbol) is computed here from docs/design/bitpacked-mapping.md. Instances within floating-point rounding.
import type { Field, FieldValue, Layout, ScalarType, ScalarValue, TypedRecord } from "#codecs";
import { layoutSpecs, type FieldSpec, type ScalarSpec } from "#codecs/plans";
import { MAX_FIELD_BITS, rawSuffix } from "../../src/kaitai/bits.ts";
import { ksyId } from "../../src/kaitai/names.ts";
import { decimalsOf, timeText } from "../support/wireValues.ts";

export interface Check {
  id: string;
  want: unknown;
  /**
   * "approx": numbers within 1e-9 relative (Kaitai computes lo + q·step in doubles); "approx32": within
   * a float32 rounding (our float32 fields hold the nearest float32)
   */
  how: "exact" | "approx" | "approx32";
}

const utf8 = new TextEncoder();
const sub = (rec: TypedRecord | undefined, key: string) => rec?.[key];
const U32_MAX = 2 ** 32 - 1;

/** struct-mapping.md: epoch timestamps are uint32 seconds when whole seconds fit, else int64 ticks */
const epochIsTicks = (t: Extract<ScalarType, { kind: "timestamp" }>): boolean =>
  !(Number.isInteger(t.resolution) && (t.min ?? 0) >= 0 && (t.max ?? U32_MAX) <= U32_MAX);

/** The Struct wire value of a scalar as Kaitai reads it (a number, a string, or a byte list). */
function structWire(t: ScalarType, v: ScalarValue): unknown {
  switch (t.kind) {
    case "bool":
      return v ? 1 : 0;
    case "enum":
      return t.values.find((e) => e.name === v)!.value;
    case "int":
      return Number(v);
    case "float":
      return t.bits === 32 ? Math.fround(v as number) : v;
    case "fixed":
      return Math.round(((v as number) - t.offset) / t.scale);
    case "timestamp": {
      if (t.encoding === "text") return timeText(t, v as number);
      if (!epochIsTicks(t)) return Math.round(v as number);
      const d = decimalsOf(t.resolution);
      return d ? Math.round((v as number) * 10 ** d) : Math.round((v as number) / t.resolution);
    }
    case "string":
      return v;
    case "bytes":
      return Array.from(v as Uint8Array);
  }
}

export function structChecks(layout: Layout, rec: TypedRecord): Check[] {
  const out: Check[] = [];
  const walk = (fields: Field[], prefix: string[], level: TypedRecord | undefined) =>
    fields.forEach((f) => {
      const keys = [...prefix, f.key];
      const id = ksyId(keys);
      const v = sub(level, f.key) as FieldValue | undefined;
      const t = f.type;
      if (t.kind === "group") return walk(t.fields, keys, v as TypedRecord | undefined);
      if (t.kind === "array") {
        const items = v as ScalarValue[] | undefined;
        out.push({ id, want: items?.map((x) => structWire(t.of, x)), how: "exact" });
        if (!t.fixed) out.push({ id: `${id}_count`, want: items?.length, how: "exact" });
        return;
      }
      const wire = v === undefined ? undefined : structWire(t, v as ScalarValue);
      if (t.kind === "fixed") {
        out.push({ id: `${id}_raw`, want: wire, how: "exact" });
        out.push({ id, want: v, how: "approx" });
      } else if (t.kind === "timestamp" && t.encoding === "epoch" && epochIsTicks(t)) {
        out.push({ id: `${id}_ticks`, want: wire, how: "exact" });
        out.push({ id, want: v, how: "approx" });
      } else out.push({ id, want: wire, how: t.kind === "float" && t.bits === 32 ? "approx32" : "exact" });
    });
  walk(layout.fields, [], rec);
  return out;
}

/** Symbol of one character in a restricted charset (docs/design/bitpacked-mapping.md, *Strings*). */
function symbolOf(charset: string, c: number): number {
  switch (charset) {
    case "digits":
      return c - 48;
    case "hex":
      return c <= 57 ? c - 48 : c <= 70 ? c - 55 : c - 87;
    case "upper-alnum":
      // AIS six-bit ASCII: '@'…'_' are 0–31, ' '…'?' keep their code
      return c >= 64 ? c - 64 : c;
    case "alnum":
      return c <= 57 ? c - 48 : c <= 90 ? c - 55 : c - 61;
    default:
      return c;
  }
}

const PAD: Record<string, number> = { digits: 15, "upper-alnum": 0, alnum: 62, ascii: 0, utf8: 0 };

function symbols(t: Extract<ScalarType, { kind: "string" }>, text: string): number[] {
  const syms =
    t.charset === "utf8"
      ? Array.from(utf8.encode(text))
      : Array.from(text, (c) => symbolOf(t.charset, c.charCodeAt(0)));
  if (t.fixed) while (syms.length < t.maxLength) syms.push(PAD[t.charset]!);
  return syms;
}

/**
 * A text timestamp travels at its format's resolution: 10^-n s with n fraction digits ("ss.s"), else
 * one second (what bitpacked-mapping.md states; a minutes-only format is still sent in seconds).
 */
function textFormatStep(format: string): number {
  const frac = /ss\.(s+)/.exec(format);
  return frac ? 10 ** -frac[1]!.length : 1;
}

const INT_MIN = (bits: number, signed: boolean): bigint => (signed ? -(1n << BigInt(bits - 1)) : 0n);

/**
 * The integer bit-packing writes for a value (bitpacked-mapping.md, *Fields in order*), from the
 * field's type: the plan only says whether a float is quantised or raw IEEE.
 */
function bitsRaw(s: ScalarSpec, t: ScalarType, v: ScalarValue): unknown {
  switch (t.kind) {
    case "bool":
      return v;
    case "enum":
      return t.values.findIndex((e) => e.name === v);
    case "int": {
      const lo =
        t.min === undefined
          ? INT_MIN(t.bits, t.signed)
          : BigInt(Math.max(Number(INT_MIN(t.bits, t.signed)), Math.ceil(t.min)));
      return Number(BigInt(v as number | bigint) - lo);
    }
    case "fixed":
      return Math.round(((v as number) - t.offset) / t.scale) - Math.round((t.min - t.offset) / t.scale);
    case "float":
    case "timestamp": {
      if (s.k === "ieee") {
        const dv = new DataView(new ArrayBuffer(8));
        if (s.bits === 32) {
          dv.setFloat32(0, v as number);
          return dv.getUint32(0);
        }
        dv.setFloat64(0, v as number);
        return Number(dv.getBigUint64(0));
      }
      // quantised: q = round((v − lo) / step), lo = min (0 for a timestamp without one), clamped to the grid
      const lo = t.kind === "float" ? t.min! : (t.min ?? 0);
      const step =
        t.kind === "float" ? t.precision! : t.encoding === "text" ? textFormatStep(t.textFormat ?? "") : t.resolution;
      const hi = t.kind === "float" ? t.max! : (t.max ?? lo + 4294967295);
      const q = Math.round(((v as number) - lo) / step);
      return Math.min(Math.max(q, 0), Math.round((hi - lo) / step));
    }
    default:
      return undefined;
  }
}

export function bitsChecks(layout: Layout, rec: TypedRecord): Check[] {
  const out: Check[] = [];
  const text = (
    id: string,
    s: Extract<ScalarSpec, { k: "string" | "bytes" }>,
    t: ScalarType,
    v: ScalarValue | undefined,
  ) => {
    const str = t.kind === "string" ? t : undefined;
    if (!s.fixed && s.lenBits > 0)
      out.push({
        id: `${id}_len`,
        want:
          v === undefined
            ? undefined
            : str
              ? str.charset !== "utf8"
                ? (v as string).length
                : utf8.encode(v as string).length
              : (v as Uint8Array).length,
        how: "exact",
      });
    const syms = v === undefined ? undefined : str ? symbols(str, v as string) : Array.from(v as Uint8Array);
    out.push({ id: `${id}_${s.k === "string" ? "sym" : "byte"}`, want: syms, how: "exact" });
  };
  const walk = (specs: FieldSpec[], prefix: string[], level: TypedRecord | undefined, present: boolean) => {
    for (const spec of specs) {
      const f = spec.field;
      const keys = [...prefix, f.key];
      const id = ksyId(keys);
      const v = sub(level, f.key) as FieldValue | undefined;
      if (spec.optional) out.push({ id: `${id}_present`, want: present ? v !== undefined : undefined, how: "exact" });
      const n = spec.node;
      if (n.k === "group") {
        walk(n.fields, keys, v as TypedRecord | undefined, present && v !== undefined);
        continue;
      }
      if (n.k === "scalar") {
        const t = f.type as ScalarType;
        if (n.s.k === "string" || n.s.k === "bytes") text(id, n.s, t, v as ScalarValue | undefined);
        else if (n.s.bits > 0) {
          const approx = n.s.k === "ieee" && n.s.bits === 64;
          out.push({
            id: `${id}${rawSuffix(n.s)}`,
            want: v === undefined ? undefined : bitsRaw(n.s, t, v as ScalarValue),
            how: approx ? "approx" : "exact",
          });
          if (n.s.k === "int" || n.s.k === "quant" || n.s.k === "fixed")
            out.push({ id, want: v, how: n.s.k === "quant" && n.s.float32 ? "approx32" : "approx" });
        }
        continue;
      }
      const items = v as ScalarValue[] | undefined;
      const elemT = (f.type as Extract<Field["type"], { kind: "array" }>).of;
      if (!n.fixed && n.countBits > 0) out.push({ id: `${id}_count`, want: items?.length, how: "exact" });
      if (n.s.k === "string" || n.s.k === "bytes") {
        for (let k = 0; k < n.maxCount; k++) text(`${id}_${k}`, n.s, elemT, items?.[k]);
      } else if (n.s.bits > MAX_FIELD_BITS) {
        // unrolled: one (hi, lo) pair per element, present while k < count
        for (let k = 0; k < n.maxCount; k++) {
          const x = items?.[k];
          out.push({
            id: `${id}_${k}${rawSuffix(n.s)}`,
            want: x === undefined ? undefined : bitsRaw(n.s, elemT, x),
            how: n.s.k === "ieee" ? "approx" : "exact",
          });
        }
      } else if (n.s.bits > 0)
        out.push({ id: `${id}${rawSuffix(n.s)}`, want: items?.map((x) => bitsRaw(n.s, elemT, x)), how: "exact" });
    }
  };
  walk(layoutSpecs(layout), [], rec, true);
  return out;
}

/** Kaitai's JavaScript values as plain data: Uint8Array → number[], element objects kept. */
export function plain(v: unknown): unknown {
  if (v instanceof Uint8Array) return Array.from(v);
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

export function close(a: unknown, b: unknown, rel = 1e-9): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i], rel));
  if (typeof a === "number" && typeof b === "number")
    return a === b || Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));
  return a === b;
}

/** Kaitai reads b1 fields as booleans; where our raw value is a number, compare 0 / 1. */
export function numericBits(got: unknown, want: unknown): unknown {
  if (typeof got === "boolean" && typeof want === "number") return got ? 1 : 0;
  if (Array.isArray(got) && Array.isArray(want)) return got.map((g, i) => numericBits(g, want[i]));
  return got;
}
