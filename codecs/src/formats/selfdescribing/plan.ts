// The layout walk every self-describing format shares: keys in layout order, each value through the
// field's text representation (fieldValueToPlain, i.e. toPlain one field at a time), with spans.
import type { ByteWriter } from "./byteWriter.ts";
import { plainToTyped } from "./decoded.ts";
import { selfDescribingSizer } from "./sizePlan.ts";
import { EncodeError, LayoutError, RecordError } from "../../errors.ts";
import { type Field, type ScalarType, type Layout } from "../../layout/schema.ts";
import type { PlainValue, TypedRecord } from "../../layout/values.ts";
import { fieldValueToPlain, type PlainMode } from "../../text/plain.ts";
import { hasLoneSurrogate } from "../../text/utf8.ts";
import { rethrowDecodeFailure } from "../decodeFailure.ts";
import type { CompiledCodec, EncodedWithSpans, FormatInfo, Span } from "../types.ts";

/**
 * How a plain number of the field goes on the wire. A plain record alone cannot say whether 20 is
 * an int or the float 20.0, and formats with float widths need to know float32 from float64.
 */
export type NumHint = "f32" | "f64" | "epoch" | "int";

export function numHint(t: ScalarType): NumHint {
  switch (t.kind) {
    case "float":
      return t.bits === 32 ? "f32" : "f64";
    case "fixed":
      return "f64";
    case "timestamp":
      return "epoch";
    default:
      return "int";
  }
}

export interface PlanEntry {
  field: Field;
  key: string;
  /** field ids from the top level joined by "/" */
  path: string;
  hint: NumHint;
  /** the format's bytes for this key (for JSON: quoted key and colon) */
  keyBytes: Uint8Array;
  /** set for groups, which the walk recurses into */
  children: PlanEntry[] | undefined;
}

/**
 * What a map key is on the wire: the field's text key (JSON, CBOR, MessagePack, PSON) or its stable
 * layout number, options.protobuf.number (the integer-keyed CBOR and MessagePack).
 */
export type KeyMode = "text" | "number";

/**
 * `at` is the fields' place in the layout document, for LayoutError paths. `encodeKey` gets the
 * field too: in "number" mode it writes the field's number, and the text key is never sent.
 */
export function compilePlan(
  fields: Field[],
  encodeKey: (key: string, field: Field) => Uint8Array,
  parentPath = "",
  at = "fields",
  keys: KeyMode = "text",
): PlanEntry[] {
  return fields.map((f, i) => {
    const path = parentPath ? `${parentPath}/${f.id}` : f.id;
    // no UTF-8 form, so no self-describing format can carry the key (a number key is not text)
    if (keys === "text" && hasLoneSurrogate(f.key))
      throw new LayoutError([{ path: `${at}[${i}].key`, message: "holds a lone surrogate" }]);
    const t = f.type;
    return {
      field: f,
      key: f.key,
      path,
      hint: t.kind === "array" ? numHint(t.of) : t.kind === "group" ? "int" : numHint(t),
      keyBytes: encodeKey(f.key, f),
      children:
        t.kind === "group" ? compilePlan(t.fields, encodeKey, path, `${at}[${i}].type.fields`, keys) : undefined,
    };
  });
}

/** What a format writes at each step of the walk; all output goes to `out`. */
export interface Sink {
  /** format id, for errors */
  readonly format: string;
  readonly out: ByteWriter;
  mapOpen(count: number): void;
  /** bytes after the last entry (JSON's "}"); nothing for length-prefixed maps */
  mapClose(): void;
  /** bytes before an entry's key (JSON's ", "); counted as part of the key */
  entrySeparator(index: number): void;
  value(v: PlainValue, hint: NumHint, path: string): void;
}

/**
 * Plain values already computed for a record: JSON, CBOR, MessagePack and PSON all need the same
 * text representation of the same sample, and the designer encodes each sample in all of them.
 * Records are immutable values (docs/design/codec-core.md), so the record object is the key.
 */
const plainMemo = new WeakMap<TypedRecord, Map<Field, PlainValue>>();
const plainMemoJson = new WeakMap<TypedRecord, Map<Field, PlainValue>>();

function memoFor(rec: TypedRecord, mode: PlainMode): Map<Field, PlainValue> {
  const memo = mode === "json" ? plainMemoJson : plainMemo;
  let m = memo.get(rec);
  if (!m) memo.set(rec, (m = new Map()));
  return m;
}

function walk(
  entries: PlanEntry[],
  rec: TypedRecord,
  sink: Sink,
  mode: PlainMode,
  spans: Span[] | null,
  path: string,
): void {
  const out = sink.out;
  let count = 0;
  for (let i = 0; i < entries.length; i++) if (rec[entries[i]!.key] !== undefined) count++;
  let at = out.pos;
  sink.mapOpen(count);
  if (spans) spans.push({ start: at, end: out.pos, field: path, role: "framing" });
  let index = 0;
  const memo = memoFor(rec, mode);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const v = rec[e.key];
    if (v === undefined) continue;
    at = out.pos;
    sink.entrySeparator(index++);
    out.bytes(e.keyBytes);
    if (spans) spans.push({ start: at, end: out.pos, field: e.path, role: "key" });
    if (e.children) {
      if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array)
        throw new EncodeError("expected a group record", sink.format, e.path);
      walk(e.children, v as TypedRecord, sink, mode, spans, e.path);
      continue;
    }
    at = out.pos;
    try {
      let plain = memo.get(e.field);
      if (plain === undefined) memo.set(e.field, (plain = fieldValueToPlain(e.field, v, mode)));
      sink.value(plain, e.hint, e.path);
    } catch (err) {
      // a value the field's text form refuses is bad input; any other exception is a bug
      if (err instanceof RecordError) throw new EncodeError(err.message, sink.format, e.path);
      throw err;
    }
    if (spans) spans.push({ start: at, end: out.pos, field: e.path, role: "value" });
  }
  at = out.pos;
  sink.mapClose();
  if (spans && out.pos > at) spans.push({ start: at, end: out.pos, field: path, role: "framing" });
}

/** Encodes one record through `sink`; a value the format cannot carry throws EncodeError with its path. */
export function encodeRecord(entries: PlanEntry[], rec: TypedRecord, sink: Sink, mode: PlainMode): Uint8Array {
  sink.out.reset();
  walk(entries, rec, sink, mode, null, "");
  return sink.out.take();
}

export function encodeRecordWithSpans(
  entries: PlanEntry[],
  rec: TypedRecord,
  sink: Sink,
  mode: PlainMode,
): EncodedWithSpans {
  sink.out.reset();
  const spans: Span[] = [];
  walk(entries, rec, sink, mode, spans, "");
  return { bytes: sink.out.take(), spans };
}

/**
 * A self-describing codec from its three format-specific parts: how it writes values (sink), how it
 * writes a key, and how it reads a whole document back into plain values.
 */
export function compileSelfDescribing(
  layout: Layout,
  info: FormatInfo,
  parts: {
    sink: Sink;
    encodeKey: (key: string, field: Field) => Uint8Array;
    mode: PlainMode;
    read: (bytes: Uint8Array) => PlainValue;
    /** "number": keys are field numbers; `named` turns a read document into the text-keyed one */
    keys?: { mode: "number"; named: (doc: PlainValue) => PlainValue };
  },
): CompiledCodec {
  const { sink, mode, read } = parts;
  const named = parts.keys?.named ?? ((doc: PlainValue) => doc);
  const entries = compilePlan(layout.fields, parts.encodeKey, "", "fields", parts.keys?.mode ?? "text");
  return {
    info,
    layout,
    encode: (record: TypedRecord) => encodeRecord(entries, record, sink, mode),
    encodeWithSpans: (record: TypedRecord) => encodeRecordWithSpans(entries, record, sink, mode),
    sizer: selfDescribingSizer(entries, sink, mode),
    document: {
      mode,
      ...(parts.keys && { named }),
      read(bytes: Uint8Array): PlainValue {
        try {
          return read(bytes);
        } catch (e) {
          rethrowDecodeFailure(e, info.id);
        }
      },
    },
    decode(bytes: Uint8Array): TypedRecord {
      try {
        return plainToTyped(layout, named(read(bytes)), mode, info.id);
      } catch (e) {
        rethrowDecodeFailure(e, info.id);
      }
    },
  };
}
