// One message → the row the buffer stores: decoded with the layout's codec (which validates ranges and
// enums), kept as the device sent it (its text, never rounded to the layout's declared decimals), with
// the values beyond the layout flagged or refused and the sizes the compression ratio needs.
import {
  codecFor,
  DecodeError,
  decodeAsSent,
  type Excess,
  type FieldValue,
  type FormatId,
  type PlainValue,
  type TypedRecord,
} from "#codecs";
import { DEFAULT_FIDELITY, type FidelityPolicy } from "#contracts/decoder/fidelity.ts";
import type { KnownLayout } from "./layouts.ts";

export interface DecodedMessage {
  device: string | undefined;
  /**
   * strict JSON of what the device sent: a self-describing format's document (its text and numbers),
   * a binary format's record in the layout's text form with every value exact (bytes as base64)
   */
  con: string;
  size: number;
  /** the same record in the layout's JSON format, the baseline of the compression ratio */
  jsonSize: number;
  /** values beyond the layout's declared decimals (or, flagging, range), stored as sent */
  flagged: Excess[];
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
export function strictJson(v: PlainValue): string {
  if (!hasNonJsonNumbers(v)) return JSON.stringify(v);
  return JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === "bigint") return Number.isSafeInteger(Number(x)) ? Number(x) : x.toString();
    if (typeof x === "number" && !Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
    return x;
  });
}

export function valueAt(rec: TypedRecord, pathIds: string[]): FieldValue | undefined {
  let v: FieldValue | undefined = rec;
  for (const id of pathIds) {
    if (v === undefined || typeof v !== "object" || Array.isArray(v) || v instanceof Uint8Array) return undefined;
    v = (v as TypedRecord)[id];
  }
  return v;
}

/**
 * Throws DecodeError (and only that) when the bytes are not a valid record of the layout, or carry
 * a value beyond it that `policy` refuses: the reason names each field, its value and what the
 * layout allows.
 */
export function decodeMessage(
  known: KnownLayout,
  format: FormatId,
  bytes: Uint8Array,
  policy: FidelityPolicy = DEFAULT_FIDELITY,
): DecodedMessage {
  const { record, sent, excess } = decodeAsSent(known.layout, format, bytes, { range: policy.range });
  if (policy.precision === "refuse") {
    const finer = excess.filter((x) => x.kind === "precision");
    if (finer.length)
      throw new DecodeError(
        finer
          .map((x) => `${x.field}: ${JSON.stringify(x.sent)} is more precise than the layout allows (${x.allowed})`)
          .join("; "),
        format,
      );
  }
  const con = strictJson(sent);
  let jsonSize: number;
  try {
    jsonSize = format === "json" ? bytes.length : codecFor(known.layout, "json").encode(record).length;
  } catch {
    jsonSize = Buffer.byteLength(con);
  }
  const key = known.deviceKey ? valueAt(record, known.deviceKey) : undefined;
  const device = key === undefined || typeof key === "object" ? undefined : String(key);
  return { device, con, size: bytes.length, jsonSize, flagged: excess };
}
