// Range, length and enum checks of one typed value against its layout type.
import { RecordError } from "../errors.ts";
import { utf8Length } from "./bytes.ts";
import type { ScalarType } from "../layout/schema.ts";
import { intLimits } from "../layout/validate.ts";
import type { ScalarValue } from "../layout/values.ts";

const CHARSETS: Record<string, RegExp> = {
  ascii: /^[\x20-\x7e]*$/,
  digits: /^[0-9]*$/,
  hex: /^[0-9A-Fa-f]*$/,
  "upper-alnum": /^[0-9A-Z \-]*$/,
  alnum: /^[0-9A-Za-z]*$/,
};

export function charsetPattern(charset: string): RegExp | undefined {
  return CHARSETS[charset];
}

/** a value outside the declared min/max: thrown, or handed to the reader that keeps and flags it */
function declared(path: string, message: string, onDeclared: ((problem: RecordError) => void) | undefined): void {
  const e = new RecordError(path, message);
  if (!onDeclared) throw e;
  onDeclared(e);
}

/**
 * Throws RecordError when `v` is not a value of `t`. `onDeclared`, when given, hears a value outside
 * the range the layout declares (min/max) instead of that throw, so a reader can keep and flag it;
 * what the type itself cannot hold (int widths, lengths, charsets, enums, non-finite fixed-point)
 * always throws.
 */
export function checkScalar(
  t: ScalarType,
  v: ScalarValue,
  path: string,
  onDeclared?: (problem: RecordError) => void,
): void {
  switch (t.kind) {
    case "bool":
      if (typeof v !== "boolean") throw new RecordError(path, "must be a boolean");
      return;
    case "enum":
      if (typeof v !== "string" || !t.values.some((e) => e.name === v))
        throw new RecordError(path, `must be one of ${t.values.map((e) => e.name).join(", ")}`);
      return;
    case "int": {
      if (t.bits === 64) {
        if (typeof v !== "bigint") throw new RecordError(path, "must be a 64-bit integer (bigint)");
        const lo = t.signed ? -(1n << 63n) : 0n;
        const hi = t.signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
        if (v < lo || v > hi) throw new RecordError(path, `is outside ${t.signed ? "" : "u"}int64`);
        if (t.min !== undefined && v < BigInt(t.min)) declared(path, `${v} is below min ${t.min}`, onDeclared);
        else if (t.max !== undefined && v > BigInt(t.max)) declared(path, `${v} is above max ${t.max}`, onDeclared);
        return;
      }
      if (typeof v !== "number" || !Number.isInteger(v)) throw new RecordError(path, "must be an integer");
      const [lo, hi] = intLimits(t.bits, t.signed);
      const min = Math.max(lo, t.min ?? lo);
      const max = Math.min(hi, t.max ?? hi);
      if (v < lo || v > hi) throw new RecordError(path, `${v} is outside ${min}..${max}`);
      if (v < min || v > max) declared(path, `${v} is outside ${min}..${max}`, onDeclared);
      return;
    }
    case "float":
      if (typeof v !== "number") throw new RecordError(path, "must be a number");
      if (Number.isFinite(v) && ((t.min !== undefined && v < t.min) || (t.max !== undefined && v > t.max)))
        declared(path, `${v} is outside ${t.min ?? "-∞"}..${t.max ?? "∞"}`, onDeclared);
      return;
    case "fixed":
      if (typeof v !== "number" || !Number.isFinite(v)) throw new RecordError(path, "must be a finite number");
      if (v < t.min || v > t.max) declared(path, `${v} is outside ${t.min}..${t.max}`, onDeclared);
      return;
    case "timestamp":
      if (typeof v !== "number" || !Number.isFinite(v)) throw new RecordError(path, "must be epoch seconds");
      if ((t.min !== undefined && v < t.min) || (t.max !== undefined && v > t.max))
        declared(path, `${v} is outside ${t.min ?? "-∞"}..${t.max ?? "∞"}`, onDeclared);
      return;
    case "string": {
      if (typeof v !== "string") throw new RecordError(path, "must be a string");
      const len = utf8Length(v);
      if (len > t.maxLength) throw new RecordError(path, `is ${len} bytes, more than maxLength ${t.maxLength}`);
      const re = CHARSETS[t.charset];
      if (re && !re.test(v)) throw new RecordError(path, `has characters outside the ${t.charset} charset`);
      return;
    }
    case "bytes":
      if (!(v instanceof Uint8Array)) throw new RecordError(path, "must be bytes");
      if (v.length > t.maxLength)
        throw new RecordError(path, `is ${v.length} bytes, more than maxLength ${t.maxLength}`);
      return;
  }
}
