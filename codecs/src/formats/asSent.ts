// A message read for a receiver that stores what was sent: the typed record (validated as always),
// the values exactly as they arrived, and every value beyond what the layout declares (more decimals
// than its text form writes; with range "flag", outside its min/max) — never rounded to the layout.
import { DecodeError, RecordError } from "../errors.ts";
import { rethrowDecodeFailure } from "./decodeFailure.ts";
import { codecFor, type FormatId } from "./registry.ts";
import type { Layout } from "../layout/schema.ts";
import type { PlainRecord, PlainValue, TypedRecord } from "../layout/values.ts";
import { bytesToBase64 } from "../text/bytes.ts";
import { fromPlainAsSent, toPlainAsSent, type Excess } from "../text/plain.ts";
import { isPlainRecord } from "./selfdescribing/decoded.ts";

export interface AsSentOptions {
  /** a value outside its field's declared min/max: refused (the default, as decode does) or kept and flagged */
  range?: "flag" | "refuse";
}

export interface DecodedAsSent {
  record: TypedRecord;
  /**
   * The message as plain JSON values. Self-describing formats: the document itself — the device's
   * text and numbers, in its key order (byte strings as base64). Binary formats: the record in the
   * layout's text form, where a value the declared decimals would round is written exactly.
   */
  sent: PlainRecord;
  /** values beyond the layout's declared precision (and, flagging, range), in the order read */
  excess: Excess[];
}

/** byte strings as base64, the one plain value JSON cannot carry as such */
function jsonReady(v: PlainValue): PlainValue {
  if (v instanceof Uint8Array) return bytesToBase64(v);
  if (Array.isArray(v)) return v.map(jsonReady);
  if (v !== null && typeof v === "object") {
    const out: PlainRecord = {};
    for (const k of Object.keys(v)) out[k] = jsonReady(v[k]!);
    return out;
  }
  return v;
}

/** Throws DecodeError (and only that, for bad input) like the codec's decode. */
export function decodeAsSent(
  layout: Layout,
  format: FormatId,
  bytes: Uint8Array,
  opts: AsSentOptions = {},
): DecodedAsSent {
  const codec = codecFor(layout, format);
  const doc = codec.document;
  if (!doc) {
    const record = codec.decode(bytes);
    try {
      const { plain, excess } = toPlainAsSent(layout, record, "json");
      return { record, sent: plain, excess };
    } catch (e) {
      // a decoder that accepted the bytes produced a value its own text form cannot print (a
      // timestamp beyond the years its format shows): refuse it too
      if (e instanceof RecordError) throw new DecodeError(`decoded record cannot be rendered: ${e.message}`, format);
      throw e;
    }
  }
  const value = doc.read(bytes);
  if (!isPlainRecord(value)) throw new DecodeError("the document is not a map", format, 0);
  try {
    // integer-keyed formats: typed by text key, shown as sent (by number)
    const named = doc.named ? doc.named(value) : value;
    if (!isPlainRecord(named)) throw new DecodeError("the document is not a map", format, 0);
    const { record, excess } = fromPlainAsSent(layout, named, doc.mode, { range: opts.range ?? "refuse" });
    return { record, sent: jsonReady(value) as PlainRecord, excess };
  } catch (e) {
    rethrowDecodeFailure(e, format);
  }
}
