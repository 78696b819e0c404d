// One message → the row the buffer stores: decoded with the layout's codec (which validates ranges and
// enums), rendered as the plain record oneM2M carries, with the sizes the compression ratio needs.
import {
  codecFor,
  DecodeError,
  type FieldValue,
  type FormatId,
  type PlainValue,
  toPlain,
  type TypedRecord,
} from "#codecs";
import type { KnownLayout } from "./layouts.ts";

export interface DecodedMessage {
  device: string | undefined;
  /** strict JSON of the plain record (json mode: bytes as base64) */
  con: string;
  size: number;
  /** the same record in the layout's JSON format, the baseline of the compression ratio */
  jsonSize: number;
}

/** whether plain JSON.stringify would print `v` differently from strictJson (a replacer costs more than the walk) */
function hasNonJsonNumbers(v: unknown): boolean {
  if (typeof v === "bigint") return true;
  if (typeof v === "number") return !Number.isFinite(v);
  if (v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return v.some(hasNonJsonNumbers);
  for (const k in v) if (hasNonJsonNumbers((v as Record<string, unknown>)[k])) return true;
  return false;
}

/** oneM2M peers parse strict JSON: non-finite floats become their Python token as a string, big integers strings. */
function strictJson(v: PlainValue): string {
  if (!hasNonJsonNumbers(v)) return JSON.stringify(v);
  return JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === "bigint") return Number.isSafeInteger(Number(x)) ? Number(x) : x.toString();
    if (typeof x === "number" && !Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
    return x;
  });
}

function valueAt(rec: TypedRecord, pathIds: string[]): FieldValue | undefined {
  let v: FieldValue | undefined = rec;
  for (const id of pathIds) {
    if (v === undefined || typeof v !== "object" || Array.isArray(v) || v instanceof Uint8Array) return undefined;
    v = (v as TypedRecord)[id];
  }
  return v;
}

/** Throws DecodeError (and only that) when the bytes are not a valid record of the layout. */
export function decodeMessage(known: KnownLayout, format: FormatId, bytes: Uint8Array): DecodedMessage {
  const record = codecFor(known.layout, format).decode(bytes);
  let con: string;
  try {
    con = strictJson(toPlain(known.layout, record, "json"));
  } catch (e) {
    // a decoder that accepted the bytes produced a record its own layout cannot print: refuse it too
    throw new DecodeError(`decoded record cannot be rendered: ${(e as Error).message}`, format);
  }
  let jsonSize: number;
  try {
    jsonSize = format === "json" ? bytes.length : codecFor(known.layout, "json").encode(record).length;
  } catch {
    jsonSize = Buffer.byteLength(con);
  }
  const key = known.deviceKey ? valueAt(record, known.deviceKey) : undefined;
  const device = key === undefined || typeof key === "object" ? undefined : String(key);
  return { device, con, size: bytes.length, jsonSize };
}
