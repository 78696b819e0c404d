// The decoded record as plain JSON (what the network-server decoders return, the JSON Schema describes
// and the decoder service forwards): toPlain's JSON form, made representable in standard JSON.
import { type Field, type Layout, type PlainValue, type ScalarType, toPlain, type TypedRecord } from "#codecs";
import { pyFloat32Repr } from "#codecs/plans";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Python's tokens: standard JSON has no NaN or infinities, so they travel as these strings. */
export const NON_FINITE_TEXT = ["NaN", "Infinity", "-Infinity"] as const;

function nonFinite(x: number): string {
  return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
}

function scalar(t: ScalarType, v: PlainValue): JsonValue {
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return nonFinite(v);
    // the digits a float32 device prints (17.23, not 17.229999542236328); reads back to the same float32
    if (t.kind === "float" && t.bits === 32) return Number(pyFloat32Repr(v));
    return v;
  }
  return v as JsonValue;
}

function field(f: Field, v: PlainValue): JsonValue {
  const t = f.type;
  if (t.kind === "group") return record(t.fields, v as { [k: string]: PlainValue });
  if (t.kind === "array") return Array.isArray(v) ? v.map((x) => scalar(t.of, x)) : (v as JsonValue);
  return scalar(t, v);
}

function record(fields: Field[], plain: { [k: string]: PlainValue }): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const f of fields) {
    const v = plain[f.key];
    if (v !== undefined) out[f.key] = field(f, v);
  }
  return out;
}

/**
 * The record in its text representation as standard JSON: bytes as base64, 64-bit integers beyond
 * ±2^53 as decimal strings, NaN/±Infinity as "NaN"/"Infinity"/"-Infinity", float32 numbers with the
 * shortest digits that read back to the same float32.
 */
export function jsonRecord(layout: Layout, rec: TypedRecord): { [key: string]: JsonValue } {
  return record(layout.fields, toPlain(layout, rec, "json"));
}
