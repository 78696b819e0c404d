// What every self-describing decoder does after parsing: own the bytes, type through the layout,
// and turn bad input (and only bad input) into DecodeError: a bug must reach the caller as itself.
import { DecodeError } from "../../errors.ts";
import type { Layout } from "../../layout/schema.ts";
import type { PlainRecord, PlainValue, TypedRecord } from "../../layout/values.ts";
import { fromPlain, type PlainMode } from "../../text/plain.ts";

export function isPlainRecord(v: PlainValue): v is PlainRecord {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** The decoded document must be a map; the layout then types and validates it. */
export function plainToTyped(layout: Layout, doc: PlainValue, mode: PlainMode, format: string): TypedRecord {
  if (!isPlainRecord(doc)) throw new DecodeError("the document is not a map", format, 0);
  return fromPlain(layout, doc, mode);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Library decoders hand back byte strings as views into the input (Node Buffers under cbor-x) and
 * every 64-bit integer head as a bigint, even a small one. A decoded record owns plain Uint8Array
 * copies, and integers a double holds exactly become numbers, as JSON and PSON read them (an
 * epoch timestamp beyond 32 bits is a number field; int64 fields turn numbers back into bigints).
 */
export function normalizeDecoded(v: PlainValue): PlainValue {
  if (typeof v === "bigint") return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : v;
  if (typeof v !== "object" || v === null) return v;
  if (v instanceof Uint8Array) return new Uint8Array(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = normalizeDecoded(v[i]!);
    return v;
  }
  for (const k of Object.keys(v)) v[k] = normalizeDecoded(v[k]!);
  return v;
}
