// Precision as the layout declares it: the step a field promises to keep is the user's contract, so the information a
// coarser step gives up follows from the two steps alone, never from what the samples happen to contain.
import type { Field, Layout, ScalarType } from "#codecs";
import { bitpackedPlan, formatResolution } from "#codecs/plans";
import type { Transform } from "./types.ts";

function scalarOf(f: Field): ScalarType | undefined {
  return f.type.kind === "array" ? f.type.of : f.type.kind === "group" ? undefined : f.type;
}

/**
 * The step the field declares, in its own unit: a fixed-point scale, a float's precision, a timestamp's resolution
 * (seconds). undefined when the type declares none (integers, strings, floats without a precision).
 */
export function declaredStep(f: Field): number | undefined {
  const t = scalarOf(f);
  if (!t) return undefined;
  switch (t.kind) {
    case "fixed":
      return t.scale;
    case "float":
      return t.precision;
    case "timestamp":
      return t.encoding === "text" && t.textFormat ? formatResolution(t.textFormat) : t.resolution;
    default:
      return undefined;
  }
}

/** Values of this field in one message as declared: 1, or every element an array may hold. */
export function valuesPerMessage(f: Field): number {
  return f.type.kind === "array" ? f.type.maxCount : 1;
}

/** The step a transform leaves the field with; undefined for changes that do not round. */
export function newStep(t: Transform): number | undefined {
  return t.kind === "fixed-point" ? t.step : t.kind === "timestamp" ? t.resolution : undefined;
}

/**
 * Bits per message given up by rounding to a coarser step: log2(new / declared) per value. A float with no declared
 * precision made fixed-point loses bits nobody declared, which we cannot count: such changes are not offered.
 */
export function declaredBitsLost(f: Field, t: Transform): number {
  const to = newStep(t);
  const from = declaredStep(f);
  if (to === undefined || from === undefined || to <= from) return 0;
  return Math.log2(to / from) * valuesPerMessage(f);
}

type PlanFields = ReturnType<typeof bitpackedPlan>["fields"];

/** Bits the field takes bit-packed at most (0 when the layout no longer has it); undefined when not bit-packable. */
export function fieldBits(layout: Layout, fieldId: string): number | undefined {
  let fields: PlanFields;
  try {
    fields = bitpackedPlan(layout).fields;
  } catch {
    return undefined;
  }
  const find = (fs: PlanFields): number | undefined => {
    for (const f of fs) {
      if (f.id === fieldId) return f.maxBits;
      if (f.fields) {
        const hit = find(f.fields);
        if (hit !== undefined) return hit;
      }
    }
    return undefined;
  };
  return find(fields) ?? 0;
}

/**
 * Bits per message given up by leaving data out (a field, an array's last elements): the declared width of what is
 * no longer sent, bit-packed (the fewest bits that tell every declared value apart). Where the layout cannot be
 * bit-packed, every byte the change saves counts as lost.
 */
export function droppedBits(before: Layout, after: Layout, fieldId: string, bytesSaved: number): number {
  const b = fieldBits(before, fieldId);
  const a = fieldBits(after, fieldId);
  return b !== undefined && a !== undefined ? Math.max(0, b - a) : Math.max(0, bytesSaved * 8);
}
