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

export function checkScalar(t: ScalarType, v: ScalarValue, path: string): void {
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
        if (t.min !== undefined && v < BigInt(t.min)) throw new RecordError(path, `${v} is below min ${t.min}`);
        if (t.max !== undefined && v > BigInt(t.max)) throw new RecordError(path, `${v} is above max ${t.max}`);
        return;
      }
      if (typeof v !== "number" || !Number.isInteger(v)) throw new RecordError(path, "must be an integer");
      const [lo, hi] = intLimits(t.bits, t.signed);
      const min = Math.max(lo, t.min ?? lo);
      const max = Math.min(hi, t.max ?? hi);
      if (v < min || v > max) throw new RecordError(path, `${v} is outside ${min}..${max}`);
      return;
    }
    case "float":
      if (typeof v !== "number") throw new RecordError(path, "must be a number");
      if (Number.isFinite(v) && ((t.min !== undefined && v < t.min) || (t.max !== undefined && v > t.max)))
        throw new RecordError(path, `${v} is outside ${t.min ?? "-∞"}..${t.max ?? "∞"}`);
      return;
    case "fixed":
      if (typeof v !== "number" || !Number.isFinite(v)) throw new RecordError(path, "must be a finite number");
      if (v < t.min || v > t.max) throw new RecordError(path, `${v} is outside ${t.min}..${t.max}`);
      return;
    case "timestamp":
      if (typeof v !== "number" || !Number.isFinite(v)) throw new RecordError(path, "must be epoch seconds");
      if ((t.min !== undefined && v < t.min) || (t.max !== undefined && v > t.max))
        throw new RecordError(path, `${v} is outside ${t.min ?? "-∞"}..${t.max ?? "∞"}`);
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
