// Ranges and lengths from what the samples hold: an integer left at its type's full span kept to the values seen
// (with a margin), an array cut to the elements it uses. A firmware engineer narrows such an integer to the
// sensor's span (an int16 accelerometer that reads ±2 g uses 12 of its 16 bits).
import type { Field, FieldValue, ScalarType } from "#codecs";
import { bitLength, roundTo } from "#codecs/plans";
import { stepDecimals } from "./transforms.ts";
import type { Transform } from "./types.ts";
import { isLatLon } from "./units.ts";

/** Room left on each side of the values seen, as a share of their spread (at least one step). */
export const RANGE_MARGIN = 0.25;

function scalarOf(f: Field): ScalarType | undefined {
  return f.type.kind === "array" ? f.type.of : f.type.kind === "group" ? undefined : f.type;
}

/**
 * The span of an integer nobody bounded (an int16 left at -32768…32767), or undefined: a declared range — every
 * fixed-point field has one — is the user's promise about the device, which samples cannot prove (a battery whose
 * samples stay over 69 % still reads 5 % one day), so it is never narrowed from them.
 */
function undeclaredRange(t: ScalarType): { min: number; max: number; step: number } | undefined {
  if (t.kind !== "int" || t.bits === 64 || t.min !== undefined || t.max !== undefined) return undefined;
  const min = t.signed ? -(2 ** (t.bits - 1)) : 0;
  const max = t.signed ? 2 ** (t.bits - 1) - 1 : 2 ** t.bits - 1;
  return { min, max, step: 1 };
}

function numbersIn(values: readonly FieldValue[]): number[] {
  const out: number[] = [];
  for (const v of values)
    if (typeof v === "number") out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === "number") out.push(x);
  return out;
}

/**
 * [min, max] around the values seen, on the field's grid, widened to use every code of its bit width; offered only
 * when it needs fewer bits than the declared range. Positions are left alone: a tracker goes where it goes.
 */
export function narrowOptions(f: Field, present: readonly FieldValue[]): Transform[] {
  const t = scalarOf(f);
  const decl = t && undeclaredRange(t);
  if (!decl || isLatLon(f)) return [];
  const nums = numbersIn(present);
  if (nums.length === 0) return [];
  let lo = Math.min(...nums);
  let hi = Math.max(...nums);
  const margin = Math.max(decl.step, (hi - lo) * RANGE_MARGIN);
  const levels = Math.round((decl.max - decl.min) / decl.step);
  let rawLo = Math.max(0, Math.floor((lo - margin - decl.min) / decl.step + 1e-9));
  let rawHi = Math.min(levels, Math.ceil((hi + margin - decl.min) / decl.step - 1e-9));
  const bits = bitLength(rawHi - rawLo);
  if (bits >= bitLength(levels)) return [];
  // every code of the new width is used: the range grows evenly on both sides, within the declared one
  const spare = 2 ** bits - 1 - (rawHi - rawLo);
  rawLo = Math.max(0, rawLo - Math.floor(spare / 2));
  rawHi = Math.min(levels, rawLo + 2 ** bits - 1);
  rawLo = Math.max(0, rawHi - (2 ** bits - 1));
  const d = stepDecimals(decl.step);
  lo = roundTo(decl.min + rawLo * decl.step, d) + 0;
  hi = roundTo(decl.min + rawHi * decl.step, d) + 0;
  return [{ kind: "narrow-range", fieldId: f.id, min: lo, max: hi }];
}

/**
 * keep: a variable-length array that never holds as many elements as it may, cut to the most seen (nothing is
 * lost for the samples). drop: its last element left out (data given up: a candidate, never planned).
 */
export function shortenOptions(f: Field, present: readonly FieldValue[]): { keep: Transform[]; drop: Transform[] } {
  if (f.type.kind !== "array" || present.length === 0) return { keep: [], drop: [] };
  const longest = Math.max(...present.map((v) => (Array.isArray(v) ? v.length : 0)));
  const keep: Transform[] =
    !f.type.fixed && longest < f.type.maxCount && longest > 0
      ? [{ kind: "array-length", fieldId: f.id, maxCount: longest }]
      : [];
  const used = Math.min(longest, f.type.maxCount);
  const drop: Transform[] = used > 1 ? [{ kind: "array-length", fieldId: f.id, maxCount: used - 1 }] : [];
  return { keep, drop };
}
