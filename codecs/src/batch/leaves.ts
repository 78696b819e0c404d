// The values one reading carries, one leaf each (a group's fields by path, a fixed array's elements), and
// for the numeric ones the integer "units" of their declared precision the delta form counts in.
import { fixedPoint } from "../layout/fixedPoint.ts";
import type { Field, Layout, ScalarType, TextRep } from "../layout/schema.ts";
import { secondsToTicks, ticksToSeconds } from "../layout/timeTicks.ts";
import { intLimits } from "../layout/validate.ts";
import { toFloat32 } from "../text/numbers.ts";
import { formatResolution } from "../text/timestamp.ts";

export interface Leaf {
  /** the top-level per-reading field it belongs to */
  field: Field;
  /** where the value sits in a reading: keys, and element indexes of fixed arrays */
  path: (string | number)[];
  /** ids from the top level ("gps/lat"): what spans and origins name */
  idPath: string;
  /** element of a fixed array, when it is one */
  element?: number;
  type: ScalarType;
  /** the wire key of its column (or its first value): keys joined by "_" ("gps_lat", "acc_0") */
  key: string;
  name: string;
  unit?: string | undefined;
  /** the field's own text representation, minus an array separator (a column is a list, never one string) */
  text?: TextRep | undefined;
  /** the field's protobuf number when the field is this one leaf (a scalar): its column keeps it */
  protobufNumber?: number | undefined;
  maxRate?: number | undefined;
}

function withoutSeparator(text: TextRep | undefined): TextRep | undefined {
  if (text?.as !== "string" || text.separator === undefined) return text;
  const { separator: _dropped, ...rest } = text;
  return rest;
}

/** The leaves of the per-reading fields, in layout order (a field's leaves in its own order). */
export function readingLeaves(layout: Layout): Leaf[] {
  const batch = layout.batch;
  if (!batch) return [];
  const rate = new Map(batch.perReading.map((p) => [p.field, p.maxRate] as const));
  const out: Leaf[] = [];
  const walk = (top: Field, f: Field, path: (string | number)[], ids: string[], keys: string[], names: string[]) => {
    const t = f.type;
    const base = {
      field: top,
      idPath: ids.join("/"),
      name: names.join(" › "),
      unit: f.unit,
      text: withoutSeparator(f.text),
      maxRate: rate.get(top.id),
    };
    if (t.kind === "group")
      for (const c of t.fields)
        walk(top, c, [...path, c.key], [...ids, c.id], [...keys, c.key], [...names, c.name || c.key]);
    else if (t.kind === "array")
      for (let i = 0; i < t.maxCount; i++)
        out.push({
          ...base,
          path: [...path, i],
          element: i,
          type: t.of,
          key: [...keys, String(i)].join("_"),
          name: `${base.name} [${i + 1}]`,
        });
    else
      out.push({
        ...base,
        path,
        type: t,
        key: keys.join("_"),
        protobufNumber: f === top ? f.options?.protobuf?.number : undefined,
      });
  };
  const perReading = new Set(batch.perReading.map((p) => p.field));
  for (const f of layout.fields) if (perReading.has(f.id)) walk(f, f, [f.key], [f.id], [f.key], [f.name || f.key]);
  return out;
}

/** A numeric leaf counted in whole steps of its declared precision. */
export interface Units {
  /** the declared range in units */
  lo: number;
  hi: number;
  /** one unit in the field's own unit (int 1, fixed: scale, float: precision, timestamp: resolution) */
  step: number;
  /** NaN when v is no value of the type the units can count (a fraction for an int, not a number) */
  toUnits(v: number): number;
  fromUnits(u: number): number;
}

/** Resolution of a timestamp: its text format's finest digit, or its declared resolution. */
export function timeResolution(t: Extract<ScalarType, { kind: "timestamp" }>): number {
  return t.encoding === "text" && t.textFormat ? formatResolution(t.textFormat) : t.resolution;
}

/** Epoch timestamps without bounds: 1970 … 2106 (an unsigned 32-bit count of seconds). */
const EPOCH_SPAN: [number, number] = [0, 4294967295];

/**
 * Units of a leaf the delta form can difference, or null: 64-bit ints (their values pass 2^53), floats
 * without a precision or without both bounds, text timestamps, and non-numbers travel as columns.
 */
export function unitsOf(t: ScalarType): Units | null {
  switch (t.kind) {
    case "int": {
      if (t.bits === 64) return null;
      const [lo, hi] = intLimits(t.bits, t.signed);
      return {
        lo: t.min ?? lo,
        hi: t.max ?? hi,
        step: 1,
        toUnits: (v) => (Number.isInteger(v) ? v : Number.NaN),
        fromUnits: (u) => u,
      };
    }
    case "fixed": {
      const fp = fixedPoint(t);
      return { lo: fp.rawMin, hi: fp.rawMax, step: t.scale, toUnits: fp.toRaw, fromUnits: fp.fromRaw };
    }
    case "float": {
      const q = t.precision;
      if (q === undefined || t.min === undefined || t.max === undefined) return null;
      const f32 = t.bits === 32;
      return {
        lo: secondsToTicks(t.min, q),
        hi: secondsToTicks(t.max, q),
        step: q,
        toUnits: (v) => secondsToTicks(v, q),
        fromUnits: (u) => (f32 ? toFloat32(ticksToSeconds(u, q)) : ticksToSeconds(u, q)),
      };
    }
    case "timestamp": {
      if (t.encoding !== "epoch") return null;
      const res = t.resolution;
      return {
        lo: secondsToTicks(t.min ?? EPOCH_SPAN[0], res),
        hi: secondsToTicks(t.max ?? EPOCH_SPAN[1], res),
        step: res,
        toUnits: (v) => secondsToTicks(v, res),
        fromUnits: (u) => ticksToSeconds(u, res),
      };
    }
    default:
      return null;
  }
}

/** x rounded up, a quotient within 1e-9 of a whole number counting as that number (0.5 / 0.01 is 50). */
export function ceilTolerant(x: number): number {
  const r = Math.round(x);
  return Math.abs(x - r) < 1e-9 ? r : Math.ceil(x);
}

/**
 * The largest difference in units between two readings: maxRate × interval in units rounded up, plus one
 * unit because both values are rounded to the precision; without a rate (or when that is wider), the span.
 */
export function maxDeltaUnits(u: Units, maxRate: number | undefined, intervalSeconds: number): number {
  const span = u.hi - u.lo;
  if (maxRate === undefined) return span;
  return Math.min(span, ceilTolerant((maxRate * intervalSeconds) / u.step) + 1);
}

/** The smallest int type holding lo … hi, with exactly those bounds (bit-packing spends just that width). */
export function intTypeFor(lo: number, hi: number): Extract<ScalarType, { kind: "int" }> {
  const signed = lo < 0;
  const bits = ([8, 16, 32, 64] as const).find((b) => {
    const [min, max] = intLimits(b, signed);
    return lo >= min && hi <= max;
  });
  return { kind: "int", bits: bits ?? 64, signed, min: lo, max: hi };
}
