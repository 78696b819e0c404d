// Whether a value says more than the decimals its field's text form declares, and the text that
// writes it without loss: a reader keeps what the device sent instead of rounding it to the layout.
import { padInteger, parseNumberText, pyFixed, pyFloatRepr, toFloat32 } from "./numbers.ts";
import { pyFloat32Repr } from "../formats/selfdescribing/float32Text.ts";
import { fixedPoint } from "../layout/fixedPoint.ts";
import type { Field, ScalarType } from "../layout/schema.ts";
import { intLimits } from "../layout/validate.ts";

/** The decimals a field's text form declares for its numbers (the paper's latitude: 2), if any. */
export function declaredDecimals(f: Field): number | undefined {
  const rep = f.text;
  if (rep?.as !== "string" || rep.decimals === undefined) return undefined;
  const t = f.type.kind === "array" ? f.type.of : f.type;
  if (t.kind === "float" || t.kind === "fixed" || (t.kind === "timestamp" && t.encoding === "epoch"))
    return rep.decimals;
  return undefined;
}

/** a and b are the same value as the field holds it (float32: the same float32; fixed-point: the same step) */
function sameValue(t: ScalarType, a: number, b: number): boolean {
  if (t.kind === "float" && t.bits === 32) return toFloat32(a) === toFloat32(b);
  if (t.kind === "fixed") {
    const fp = fixedPoint(t);
    return fp.toRaw(a) === fp.toRaw(b);
  }
  return a === b;
}

/**
 * Text a device wrote ("31.6225") denotes a number that `decimals` places cannot write: its
 * rounding to them ("31.62") is another number. Trailing zeros ("31.6200") say nothing more.
 */
export function textExceeds(text: string, decimals: number): boolean {
  const x = parseNumberText(text);
  if (x === undefined || !Number.isFinite(x)) return false;
  return Number(pyFixed(x, decimals)) !== x;
}

/** `text` (the declared form of `v`, e.g. pyFixed's) reads back to `v` as its field holds it */
export function textHolds(t: ScalarType, text: string, v: number): boolean {
  return sameValue(t, Number(text), v);
}

/**
 * A value as its field holds it (a decoded float32, a fixed-point step) changes when written with
 * `decimals` places and read back: the text form the layout declares would round it.
 */
export function valueExceeds(t: ScalarType, v: number, decimals: number): boolean {
  if (!Number.isFinite(v)) return false;
  return !textHolds(t, pyFixed(v, decimals), v);
}

/** The shortest decimal that reads back to `v` as its field holds it (float32 31.6225 → "31.6225"). */
export function exactText(t: ScalarType, v: number, pad?: number): string {
  const s = t.kind === "float" && t.bits === 32 && Number.isFinite(v) ? pyFloat32Repr(v) : pyFloatRepr(v);
  return pad !== undefined ? padInteger(s, pad) : s;
}

export const decimalsAllowed = (decimals: number): string => `at most ${decimals} decimal${decimals === 1 ? "" : "s"}`;

/** the declared range of a numeric type, as a reason quotes it ("-90..90") */
export function declaredRange(t: ScalarType): string {
  if (t.kind === "int" && t.bits !== 64) {
    const [lo, hi] = intLimits(t.bits, t.signed);
    return `${Math.max(lo, t.min ?? lo)}..${Math.min(hi, t.max ?? hi)}`;
  }
  if (t.kind === "int" || t.kind === "float" || t.kind === "fixed" || t.kind === "timestamp")
    return `${t.min ?? "-∞"}..${t.max ?? "∞"}`;
  return "";
}
