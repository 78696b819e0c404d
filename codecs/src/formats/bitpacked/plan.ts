// The bit budget of a layout: how each field is quantised and packed, how many bits it takes and what it may lose.
import { alphabetFor, type Alphabet } from "./charsets.ts";
import { bitLength, bitLengthBig, quantiser, ulp64, worstError, type Quantiser } from "./quantise.ts";
import { fixedPoint } from "../../layout/fixedPoint.ts";
import type { Field, Layout, ScalarType } from "../../layout/schema.ts";
import { intLimits } from "../../layout/validate.ts";
import { formatResolution } from "../../text/timestamp.ts";

export type ScalarSpec =
  | { k: "bool"; bits: 1 }
  | { k: "enum"; bits: number; names: string[]; index: Map<string, number> }
  | { k: "int"; bits: number; lo: number; hi: number }
  | { k: "int64"; bits: number; lo: bigint; hi: bigint }
  | { k: "quant"; bits: number; qz: Quantiser; float32: boolean }
  | {
      k: "fixed";
      bits: number;
      rawLo: number;
      span: number;
      scale: number;
      offset: number;
      min: number;
      max: number;
      fromRaw: (raw: number) => number;
    }
  | { k: "ieee"; bits: 32 | 64; min: number; max: number }
  | {
      k: "string";
      alphabet: Alphabet | undefined;
      charBits: number;
      maxLength: number;
      fixed: boolean;
      lenBits: number;
    }
  | { k: "bytes"; maxLength: number; fixed: boolean; lenBits: number };

export type NodeSpec =
  | { k: "scalar"; s: ScalarSpec }
  | { k: "array"; s: ScalarSpec; maxCount: number; fixed: boolean; countBits: number }
  | { k: "group"; fields: FieldSpec[] };

export interface FieldSpec {
  field: Field;
  /** field ids joined by "/" (spans) */
  path: string;
  /** keys joined by "." (error messages, like RecordError) */
  keyPath: string;
  optional: boolean;
  node: NodeSpec;
}

/** Widest window a timestamp without a range gets: 32-bit seconds from 1970 (to 2106). */
const SECONDS_32 = 4294967295;

function timestampSpec(t: Extract<ScalarType, { kind: "timestamp" }>): ScalarSpec {
  const res = t.encoding === "text" && t.textFormat ? formatResolution(t.textFormat) : t.resolution;
  const lo = t.min ?? 0;
  const hi = t.max ?? (t.min !== undefined ? t.min + SECONDS_32 : SECONDS_32);
  const qz = quantiser(lo, hi, res);
  if (qz && qz.bits < 64) return { k: "quant", bits: qz.bits, qz, float32: false };
  return { k: "ieee", bits: 64, min: t.min ?? -Infinity, max: t.max ?? Infinity };
}

export function scalarSpec(t: ScalarType): ScalarSpec {
  switch (t.kind) {
    case "bool":
      return { k: "bool", bits: 1 };
    case "enum": {
      const names = t.values.map((v) => v.name);
      return { k: "enum", bits: bitLength(names.length - 1), names, index: new Map(names.map((n, i) => [n, i])) };
    }
    case "int": {
      if (t.bits === 64) {
        const lo0 = t.signed ? -(1n << 63n) : 0n;
        const hi0 = t.signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
        const lo = t.min !== undefined && BigInt(Math.ceil(t.min)) > lo0 ? BigInt(Math.ceil(t.min)) : lo0;
        const hi = t.max !== undefined && BigInt(Math.floor(t.max)) < hi0 ? BigInt(Math.floor(t.max)) : hi0;
        return { k: "int64", bits: bitLengthBig(hi - lo), lo, hi };
      }
      const [lo0, hi0] = intLimits(t.bits, t.signed);
      const lo = Math.max(lo0, t.min !== undefined ? Math.ceil(t.min) : lo0);
      const hi = Math.min(hi0, t.max !== undefined ? Math.floor(t.max) : hi0);
      return { k: "int", bits: bitLength(Math.max(0, hi - lo)), lo, hi };
    }
    case "float": {
      const raw = t.bits;
      if (t.min !== undefined && t.max !== undefined && t.precision !== undefined) {
        const qz = quantiser(t.min, t.max, t.precision);
        if (qz && qz.bits < raw) return { k: "quant", bits: qz.bits, qz, float32: raw === 32 };
      }
      return { k: "ieee", bits: raw, min: t.min ?? -Infinity, max: t.max ?? Infinity };
    }
    case "fixed": {
      const fp = fixedPoint(t);
      const rawLo = fp.rawMin;
      const span = fp.rawMax - rawLo;
      return {
        k: "fixed",
        bits: bitLength(span),
        rawLo,
        span,
        scale: t.scale,
        offset: t.offset,
        min: t.min,
        max: t.max,
        fromRaw: fp.fromRaw,
      };
    }
    case "timestamp":
      return timestampSpec(t);
    case "string": {
      const alphabet = alphabetFor(t.charset);
      return {
        k: "string",
        alphabet,
        charBits: alphabet ? alphabet.bits : 8,
        maxLength: t.maxLength,
        fixed: t.fixed,
        lenBits: t.fixed ? 0 : bitLength(t.maxLength),
      };
    }
    case "bytes":
      return { k: "bytes", maxLength: t.maxLength, fixed: t.fixed, lenBits: t.fixed ? 0 : bitLength(t.maxLength) };
  }
}

function fieldSpec(f: Field, parentPath: string, parentKeys: string): FieldSpec {
  const path = parentPath ? `${parentPath}/${f.id}` : f.id;
  const keyPath = parentKeys ? `${parentKeys}.${f.key}` : f.key;
  const t = f.type;
  let node: NodeSpec;
  if (t.kind === "group") node = { k: "group", fields: t.fields.map((c) => fieldSpec(c, path, keyPath)) };
  else if (t.kind === "array")
    node = {
      k: "array",
      s: scalarSpec(t.of),
      maxCount: t.maxCount,
      fixed: t.fixed,
      countBits: t.fixed ? 0 : bitLength(t.maxCount),
    };
  else node = { k: "scalar", s: scalarSpec(t) };
  return { field: f, path, keyPath, optional: f.presence === "optional", node };
}

export function layoutSpecs(layout: Layout): FieldSpec[] {
  return layout.fields.map((f) => fieldSpec(f, "", ""));
}

// ---- the public description -------------------------------------------------------------------

export interface BitpackedFieldPlan {
  id: string;
  /** field ids joined by "/", as in spans */
  path: string;
  key: string;
  name: string;
  unit?: string;
  /** how the value travels, one line */
  encoding: string;
  /** 1 for optional fields (the presence bit), else 0 */
  presenceBits: number;
  /** bits the field takes, presence bit, length and count included; equal for fixed-size fields */
  minBits: number;
  maxBits: number;
  /** quantisation step in the field's unit, 0 when the value travels exactly */
  step: number;
  /** worst |decoded − original| in the field's unit over the field's range, 0 when exact */
  maxError: number;
  /** group members */
  fields?: BitpackedFieldPlan[];
}

export interface BitpackedPlan {
  fields: BitpackedFieldPlan[];
  minBits: number;
  maxBits: number;
  minBytes: number;
  maxBytes: number;
}

interface ScalarCost {
  minBits: number;
  maxBits: number;
  step: number;
  maxError: number;
  encoding: string;
}

const num = (x: number): string => (Number.isFinite(x) ? String(x) : x > 0 ? "∞" : "−∞");

function scalarCost(s: ScalarSpec): ScalarCost {
  const exact = (bits: number, encoding: string): ScalarCost => ({
    minBits: bits,
    maxBits: bits,
    step: 0,
    maxError: 0,
    encoding,
  });
  switch (s.k) {
    case "bool":
      return exact(1, "1 bit");
    case "enum":
      return exact(s.bits, `index into ${s.names.length} values, ${s.bits} bits`);
    case "int":
      return exact(s.bits, `v − ${s.lo} in ${s.bits} bits (${s.lo}…${s.hi})`);
    case "int64":
      return exact(s.bits, `v − ${s.lo} in ${s.bits} bits (${s.lo}…${s.hi})`);
    case "quant":
      return {
        minBits: s.bits,
        maxBits: s.bits,
        step: s.qz.step,
        maxError: worstError(s.qz, s.float32),
        encoding: `round((v − ${s.qz.lo}) / ${s.qz.step}) in ${s.bits} bits (0…${s.qz.qMax})`,
      };
    case "fixed": {
      const m = Math.max(Math.abs(s.min), Math.abs(s.max), s.max - s.min);
      return {
        minBits: s.bits,
        maxBits: s.bits,
        step: s.scale,
        maxError: s.scale / 2 + 2 * ulp64(m),
        encoding: `raw − ${s.rawLo} in ${s.bits} bits (raw = round((v − ${s.offset}) / ${s.scale}))`,
      };
    }
    case "ieee":
      return exact(s.bits, `IEEE 754 binary${s.bits} (range ${num(s.min)}…${num(s.max)})`);
    case "string": {
      const chars = s.alphabet
        ? `${s.alphabet.bits}-bit ${s.alphabet.charset} symbols (${s.alphabet.describe})`
        : "UTF-8 bytes, 8 bits each (NUL pads)";
      const body = s.maxLength * s.charBits;
      return {
        minBits: s.lenBits + (s.fixed ? body : 0),
        maxBits: s.lenBits + body,
        step: 0,
        maxError: 0,
        encoding: s.fixed ? `exactly ${s.maxLength} × ${chars}` : `length in ${s.lenBits} bits, then ${chars}`,
      };
    }
    case "bytes":
      return {
        minBits: s.lenBits + (s.fixed ? 8 * s.maxLength : 0),
        maxBits: s.lenBits + 8 * s.maxLength,
        step: 0,
        maxError: 0,
        encoding: s.fixed ? `exactly ${s.maxLength} bytes` : `length in ${s.lenBits} bits, then 8 bits per byte`,
      };
  }
}

function describeField(spec: FieldSpec): BitpackedFieldPlan {
  const f = spec.field;
  const presenceBits = spec.optional ? 1 : 0;
  const base = {
    id: f.id,
    path: spec.path,
    key: f.key,
    name: f.name,
    ...(f.unit !== undefined ? { unit: f.unit } : {}),
    presenceBits,
  };
  const n = spec.node;
  if (n.k === "group") {
    const fields = n.fields.map(describeField);
    const sum = (k: "minBits" | "maxBits") => fields.reduce((a, c) => a + c[k], 0);
    return {
      ...base,
      encoding: `group of ${fields.length} fields, inline`,
      minBits: spec.optional ? 1 : sum("minBits"),
      maxBits: presenceBits + sum("maxBits"),
      step: Math.max(0, ...fields.map((c) => c.step)),
      maxError: Math.max(0, ...fields.map((c) => c.maxError)),
      fields,
    };
  }
  const c = scalarCost(n.s);
  if (n.k === "array") {
    const minCount = n.fixed ? n.maxCount : 0;
    return {
      ...base,
      encoding: `${n.fixed ? `exactly ${n.maxCount}` : `count in ${n.countBits} bits, then up to ${n.maxCount}`} elements, each ${c.encoding}`,
      minBits: spec.optional ? 1 : n.countBits + minCount * c.minBits,
      maxBits: presenceBits + n.countBits + n.maxCount * c.maxBits,
      step: c.step,
      maxError: c.maxError,
    };
  }
  return {
    ...base,
    encoding: c.encoding,
    minBits: spec.optional ? 1 : c.minBits,
    maxBits: presenceBits + c.maxBits,
    step: c.step,
    maxError: c.maxError,
  };
}

/** What bit-packing does to every field of the layout: bits, quantisation step and worst-case error. */
export function bitpackedPlan(layout: Layout): BitpackedPlan {
  const fields = layoutSpecs(layout).map(describeField);
  const minBits = fields.reduce((a, c) => a + c.minBits, 0);
  const maxBits = fields.reduce((a, c) => a + c.maxBits, 0);
  return { fields, minBits, maxBits, minBytes: Math.ceil(minBits / 8), maxBytes: Math.ceil(maxBits / 8) };
}
