// Typed record ⇄ plain record (what JSON, CBOR, MessagePack and PSON carry), per field text representation.
import { RecordError } from "../errors.ts";
import { bytesToBase64, base64ToBytes, bytesToHex, hexToBytes } from "./bytes.ts";
import { checkScalar } from "./check.ts";
import { padInteger, parseNumberText, pyFixed, pyFloatRepr, toFloat32 } from "./numbers.ts";
import {
  decimalsAllowed,
  declaredDecimals,
  declaredRange,
  exactText,
  textExceeds,
  textHolds,
  valueExceeds,
} from "./precision.ts";
import { compileTextTime, parseTimestamp } from "./timestamp.ts";
import type { Field, Layout, ScalarType, TextRep } from "../layout/schema.ts";
import type { FieldValue, PlainRecord, PlainValue, ScalarValue, TypedRecord } from "../layout/values.ts";

/** "json": bytes as base64 text; "binary": bytes stay bytes (CBOR, MessagePack, PSON carry them natively). */
export type PlainMode = "json" | "binary";

/** A value beyond what the layout declares for its field, kept as sent instead of rounded or refused. */
export interface Excess {
  /** field keys from the top level joined by "." (an array's elements count for the array) */
  field: string;
  /** precision: more decimals than the field's text form declares; range: outside its declared min/max */
  kind: "precision" | "range";
  /** the value as it arrived: the device's text, or the shortest decimal of the number */
  sent: string;
  /** what the layout allows: "at most 2 decimals", "-90..90" */
  allowed: string;
}

/**
 * Reading and writing "as sent" collect excess values here. Without one (the designer's encode and
 * decode paths) every function behaves exactly as before: rounds to the declared text, refuses
 * values outside the declared range.
 */
interface AsSent {
  excess: Excess[];
  /** keep a value outside the declared range and flag it (else refuse it, as always) */
  flagRange: boolean;
}

function timeText(format: string, v: number): string {
  const s = compileTextTime(format).format(v);
  if (s === undefined) throw new RecordError("", `${v} s is outside the years 0000–9999 that "${format}" can show`);
  return s;
}

function scalarToText(
  t: ScalarType,
  v: ScalarValue,
  rep: Extract<TextRep, { as: "string" }>,
  asSent?: AsSent,
  field?: string,
): string {
  let s: string;
  switch (t.kind) {
    case "bool":
      s = v ? "1" : "0";
      break;
    case "enum":
      s = String(v);
      break;
    case "timestamp":
      s =
        t.encoding === "text"
          ? timeText(t.textFormat!, v as number)
          : rep.decimals !== undefined
            ? pyFixed(v as number, rep.decimals)
            : String(v);
      break;
    case "string":
      s = v as string;
      break;
    case "bytes":
      s = bytesToHex(v as Uint8Array);
      break;
    case "int":
      s = String(v);
      break;
    case "float":
    case "fixed":
      s = rep.decimals !== undefined ? pyFixed(v as number, rep.decimals) : pyFloatRepr(v as number);
      break;
  }
  if (
    asSent &&
    rep.decimals !== undefined &&
    typeof v === "number" &&
    numericText(t) &&
    Number.isFinite(v) &&
    !textHolds(t, s, v)
  ) {
    // the declared decimals would round what the wire carried: write the exact value and flag it
    const sent = exactText(t, v, rep.pad);
    asSent.excess.push({ field: field ?? "", kind: "precision", sent, allowed: decimalsAllowed(rep.decimals) });
    return sent;
  }
  return rep.pad !== undefined && (t.kind === "int" || t.kind === "float" || t.kind === "fixed" || t.kind === "enum")
    ? padInteger(s, rep.pad)
    : s;
}

/** numbers a text form writes with fixed decimals */
const numericText = (t: ScalarType): boolean =>
  t.kind === "float" || t.kind === "fixed" || (t.kind === "timestamp" && t.encoding === "epoch");

function scalarToPlain(t: ScalarType, v: ScalarValue, mode: PlainMode): PlainValue {
  switch (t.kind) {
    case "enum":
      return t.values.find((e) => e.name === v)?.value ?? (v as string);
    case "timestamp":
      return t.encoding === "text" ? timeText(t.textFormat!, v as number) : (v as number);
    case "bytes":
      return mode === "json" ? bytesToBase64(v as Uint8Array) : (v as Uint8Array);
    default:
      return v as PlainValue;
  }
}

function textToScalar(t: ScalarType, s: string, path: string): ScalarValue {
  switch (t.kind) {
    case "bool":
      if (s === "1" || s === "true") return true;
      if (s === "0" || s === "false") return false;
      throw new RecordError(path, `"${s}" is not a boolean (1/0/true/false)`);
    case "enum":
      if (t.values.some((e) => e.name === s)) return s;
      throw new RecordError(path, `"${s}" is not one of ${t.values.map((e) => e.name).join(", ")}`);
    case "string":
      return s;
    case "bytes": {
      const b = hexToBytes(s);
      if (!b) throw new RecordError(path, `"${s}" is not hex`);
      return b;
    }
    case "timestamp": {
      if (t.encoding === "text") {
        const n = parseTimestamp(s, t.textFormat!);
        if (n === undefined) throw new RecordError(path, `"${s}" does not match ${t.textFormat}`);
        return n;
      }
      const n = parseNumberText(s);
      if (n === undefined) throw new RecordError(path, `"${s}" is not a number`);
      return n;
    }
    case "int": {
      if (!/^[+-]?\d+$/.test(s.trim())) throw new RecordError(path, `"${s}" is not an integer`);
      return t.bits === 64 ? BigInt(s.trim()) : Number(s.trim());
    }
    case "float":
    case "fixed": {
      const n = parseNumberText(s);
      if (n === undefined) throw new RecordError(path, `"${s}" is not a number`);
      return canonicalNumber(t, n);
    }
  }
}

/** float32 fields hold the nearest float32, so a parsed "17.23" equals what the binary formats decode. */
function canonicalNumber(t: ScalarType, n: number): number {
  return t.kind === "float" && t.bits === 32 ? toFloat32(n) : n;
}

function plainToScalar(t: ScalarType, v: PlainValue, path: string, mode: PlainMode): ScalarValue {
  switch (t.kind) {
    case "bool":
      if (typeof v === "boolean") return v;
      break;
    case "enum":
      if (typeof v === "number") {
        const e = t.values.find((x) => x.value === v);
        if (e) return e.name;
        throw new RecordError(path, `${v} is not a value of the enum`);
      }
      if (typeof v === "string") return textToScalar(t, v, path);
      break;
    case "int":
      if (typeof v === "number" && Number.isInteger(v)) return t.bits === 64 ? BigInt(v) : v;
      if (typeof v === "bigint") {
        if (t.bits === 64) return v;
        if (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(v);
      }
      break;
    case "float":
    case "fixed":
      if (typeof v === "number") return canonicalNumber(t, v);
      if (typeof v === "bigint") return canonicalNumber(t, Number(v));
      break;
    case "timestamp":
      if (t.encoding === "text" && typeof v === "string") return textToScalar(t, v, path);
      if (t.encoding === "epoch" && typeof v === "number") return v;
      break;
    case "string":
      if (typeof v === "string") return v;
      break;
    case "bytes":
      if (v instanceof Uint8Array) return v;
      if (mode === "json" && typeof v === "string") {
        const b = base64ToBytes(v);
        if (b) return b;
      }
      break;
  }
  throw new RecordError(path, `expected ${t.kind}, got ${describe(v)}`);
}

function describe(v: PlainValue | undefined): string {
  if (v === null) return "null";
  if (v === undefined) return "nothing";
  if (v instanceof Uint8Array) return "bytes";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `"${v.length > 24 ? `${v.slice(0, 24)}…` : v}"`;
  return typeof v === "object" ? "an object" : `${typeof v} ${String(v)}`;
}

function fieldToPlain(f: Field, v: FieldValue, mode: PlainMode, asSent?: AsSent, at = ""): PlainValue {
  const t = f.type;
  if (t.kind === "group") return recordToPlain(t.fields, v as TypedRecord, mode, asSent, at);
  const rep = f.text;
  if (t.kind === "array") {
    const items = v as ScalarValue[];
    if (rep?.as === "string") {
      const texts = items.map((x) => scalarToText(t.of, x, rep, asSent, at));
      return rep.separator !== undefined ? texts.join(rep.separator) : texts;
    }
    return items.map((x) => scalarToPlain(t.of, x, mode));
  }
  return rep?.as === "string"
    ? scalarToText(t, v as ScalarValue, rep, asSent, at)
    : scalarToPlain(t, v as ScalarValue, mode);
}

function recordToPlain(fields: Field[], rec: TypedRecord, mode: PlainMode, asSent?: AsSent, at = ""): PlainRecord {
  const out: PlainRecord = {};
  for (const f of fields) {
    const v = rec[f.key];
    if (v === undefined) continue;
    out[f.key] = fieldToPlain(f, v, mode, asSent, asSent ? (at ? `${at}.${f.key}` : f.key) : "");
  }
  return out;
}

/** The record as a device writes it in a self-describing format (keys in layout order). */
export function toPlain(layout: Layout, rec: TypedRecord, mode: PlainMode = "binary"): PlainRecord {
  return recordToPlain(layout.fields, rec, mode);
}

export function fieldValueToPlain(f: Field, v: FieldValue, mode: PlainMode = "binary"): PlainValue {
  return fieldToPlain(f, v, mode);
}

/**
 * A decoded record (from a binary format) as its plain record, where the declared decimals never
 * round what the wire carried: such a value is written exactly (float32 31.6225 → "31.6225", not
 * "31.62") and listed in `excess`. Values the declared text writes exactly come out as toPlain's.
 */
export function toPlainAsSent(
  layout: Layout,
  rec: TypedRecord,
  mode: PlainMode = "json",
): { plain: PlainRecord; excess: Excess[] } {
  const asSent: AsSent = { excess: [], flagRange: false };
  return { plain: recordToPlain(layout.fields, rec, mode, asSent), excess: asSent.excess };
}

/** what a reader as sent notes about one value: more decimals than declared, or (flagging) outside the range */
function noteExcess(
  f: Field,
  t: ScalarType,
  sentValue: PlainValue,
  typed: ScalarValue,
  field: string,
  path: string,
  asSent: AsSent | undefined,
): void {
  if (!asSent) {
    checkScalar(t, typed, path);
    return;
  }
  const sent = typeof sentValue === "string" ? sentValue : String(sentValue);
  const decimals = declaredDecimals(f);
  if (decimals !== undefined && typeof typed === "number") {
    const more = typeof sentValue === "string" ? textExceeds(sentValue, decimals) : valueExceeds(t, typed, decimals);
    if (more) asSent.excess.push({ field, kind: "precision", sent, allowed: decimalsAllowed(decimals) });
  }
  checkScalar(t, typed, path, () => {
    // quoted as the device wrote it ("95.1234"), not as the float32 it reads as (95.12339782714844)
    if (!asSent.flagRange) throw new RecordError(path, `${sent} is outside ${declaredRange(t)}`);
    asSent.excess.push({ field, kind: "range", sent, allowed: declaredRange(t) });
  });
}

function plainToField(f: Field, v: PlainValue, path: string, mode: PlainMode, asSent?: AsSent): FieldValue {
  const t = f.type;
  // bytes written as text are hex (scalarToText), also in JSON, where bytes without a text form are base64
  const asText = f.text?.as === "string";
  if (t.kind === "group") {
    if (v === null || typeof v !== "object" || Array.isArray(v) || v instanceof Uint8Array)
      throw new RecordError(path, `expected an object, got ${describe(v)}`);
    return plainToRecord(t.fields, v as PlainRecord, path, mode, asSent);
  }
  if (t.kind === "array") {
    let items: PlainValue[];
    if (typeof v === "string" && f.text?.as === "string" && f.text.separator !== undefined)
      items = v === "" ? [] : v.split(f.text.separator);
    else if (Array.isArray(v)) items = v;
    else throw new RecordError(path, `expected an array, got ${describe(v)}`);
    if (t.fixed ? items.length !== t.maxCount : items.length > t.maxCount)
      throw new RecordError(
        path,
        t.fixed
          ? `needs exactly ${t.maxCount} elements, got ${items.length}`
          : `holds at most ${t.maxCount} elements, got ${items.length}`,
      );
    return items.map((x, i) => {
      const p = `${path}[${i}]`;
      const s =
        typeof x === "string" &&
        t.of.kind !== "string" &&
        t.of.kind !== "enum" &&
        !(t.of.kind === "timestamp" && t.of.encoding === "text") &&
        !(t.of.kind === "bytes" && mode === "json" && !asText)
          ? textToScalar(t.of, x, p)
          : plainToScalar(t.of, x, p, mode);
      noteExcess(f, t.of, x, s, path, p, asSent);
      return s;
    });
  }
  const useText =
    typeof v === "string" &&
    t.kind !== "string" &&
    !(t.kind === "timestamp" && t.encoding === "text") &&
    !(t.kind === "bytes" && mode === "json" && !asText) &&
    t.kind !== "enum";
  const s = useText ? textToScalar(t, v as string, path) : plainToScalar(t, v, path, mode);
  noteExcess(f, t, v, s, path, path, asSent);
  return s;
}

function plainToRecord(fields: Field[], obj: PlainRecord, at: string, mode: PlainMode, asSent?: AsSent): TypedRecord {
  const out: TypedRecord = {};
  for (const f of fields) {
    const path = at ? `${at}.${f.key}` : f.key;
    const v = obj[f.key];
    if (v === undefined || v === null) {
      if (f.presence === "required") throw new RecordError(path, "is required");
      continue;
    }
    out[f.key] = plainToField(f, v, path, mode, asSent);
  }
  const known = new Set(fields.map((f) => f.key));
  for (const k of Object.keys(obj))
    if (!known.has(k)) throw new RecordError(at ? `${at}.${k}` : k, "is not a field of the layout");
  return out;
}

/**
 * Reads a record as a device emitted it (numbers or formatted strings, e.g. the paper's all-string
 * JSON) into typed values, validating types, ranges, enums and lengths. Throws RecordError.
 */
export function fromPlain(layout: Layout, obj: PlainRecord, mode: PlainMode = "binary"): TypedRecord {
  return plainToRecord(layout.fields, obj, "", mode);
}

/**
 * fromPlain for a reader that keeps what was sent: the same validation, plus `excess`, every value
 * with more decimals than its field's text form declares (kept in the typed record as parsed) and,
 * with `range: "flag"`, every value outside its declared min/max (kept instead of refused). What a
 * field's type cannot hold at all (an int beyond its width, a string too long, an unknown enum
 * name) is refused either way. Throws RecordError.
 */
export function fromPlainAsSent(
  layout: Layout,
  obj: PlainRecord,
  mode: PlainMode,
  opts: { range: "flag" | "refuse" },
): { record: TypedRecord; excess: Excess[] } {
  const asSent: AsSent = { excess: [], flagRange: opts.range === "flag" };
  return { record: plainToRecord(layout.fields, obj, "", mode, asSent), excess: asSent.excess };
}
