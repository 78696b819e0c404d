// The verdicts checked with the codecs themselves: encode samples with one layout, decode them with
// the other, and see whether every message reads and every shared field keeps its value.
import { locate } from "./match.ts";
import type { Compat } from "./types.ts";
import { batchCodecFor } from "../batch/codec.ts";
import type { BatchForm } from "../batch/plan.ts";
import { codecFor, type FormatId } from "../formats/registry.ts";
import type { Field, Layout } from "../layout/schema.ts";
import type { FieldValue, TypedRecord } from "../layout/values.ts";
import { generateSamples } from "../samples/generate.ts";
import { generateBatches } from "../samples/series.ts";

function at(rec: TypedRecord, keys: string[]): FieldValue | undefined {
  let v: FieldValue | undefined = rec;
  for (const k of keys) {
    if (v === undefined || typeof v !== "object" || Array.isArray(v) || v instanceof Uint8Array) return undefined;
    v = (v as TypedRecord)[k];
  }
  return v;
}

function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) {
    const x = Number(a);
    const y = Number(b);
    // float32 ↔ float64 and quantised values: equal within a float32 rounding
    return (
      x === y || (Number.isNaN(x) && Number.isNaN(y)) || Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x), Math.abs(y))
    );
  }
  return a === b;
}

const leafOf = (f: Field) => f.type.kind !== "group";

export interface ProbeResult {
  verdict: Compat;
  samples: number;
  /** up to three messages that failed, for the report */
  examples: string[];
}

/** Writer encodes its samples; reader decodes them. Shared fields are matched by id. */
export function probe(writer: Layout, reader: Layout, format: FormatId, n = 40, seed = 7): ProbeResult {
  const enc = codecFor(writer, format);
  const dec = codecFor(reader, format);
  const w = locate(writer);
  const r = locate(reader);
  const shared = [...w]
    .filter(([id, l]) => r.has(id) && leafOf(l.field))
    .map(([id, l]) => [l.keys, r.get(id)!.keys] as const);
  const readerOnlyRequired = [...r]
    .filter(([id, l]) => !w.has(id) && l.field.presence === "required" && leafOf(l.field))
    .map(([, l]) => l.keys);
  let refused = 0;
  let misread = 0;
  let tried = 0;
  let defaulted = false;
  const examples: string[] = [];
  for (const rec of generateSamples(writer, n, seed)) {
    let bytes: Uint8Array;
    try {
      bytes = enc.encode(rec);
    } catch {
      continue;
    }
    tried++;
    let got: TypedRecord;
    try {
      got = dec.decode(bytes);
    } catch (e) {
      refused++;
      if (examples.length < 3) examples.push((e as Error).message);
      continue;
    }
    // the writer's own reading of its bytes: lossy formats compare what survives the trip
    const sent = enc.decode(bytes);
    const differs = shared.find(([wk, rk]) => !sameValue(at(sent, wk), at(got, rk)));
    if (differs) {
      misread++;
      if (examples.length < 3)
        examples.push(
          `${differs[1].join(".")}: wrote ${String(at(sent, differs[0]))}, read ${String(at(got, differs[1]))}`,
        );
    }
    if (readerOnlyRequired.some((k) => at(got, k) !== undefined)) defaulted = true;
  }
  // a silently wrong value is worse than a refusal: one misread message, or every message refused, breaks
  const verdict: Compat =
    misread > 0 || (tried > 0 && refused === tried) ? "breaking" : refused > 0 || defaulted ? "degraded" : "compatible";
  return { verdict, samples: tried, examples };
}

/** Equal as decoded values, objects and lists field by field (numbers within a float32 rounding). */
function sameDeep(a: unknown, b: unknown): boolean {
  if (a && b && typeof a === "object" && typeof b === "object" && !(a instanceof Uint8Array)) {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => sameDeep((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return sameValue(a as FieldValue | undefined, b as FieldValue | undefined);
}

/** One side of a batch probe: a batch layout at its maxReadings, or a layout without a batch. */
export interface BatchSide {
  layout: Layout;
  /** undefined: the layout sends one reading per message */
  maxReadings?: number;
}

/**
 * The batch codecs themselves (their batch checks: count, difference widths, keyframes, offsets included):
 * the writer encodes seeded series, the reader decodes them. A message read by a reader of another shape
 * (batched against not) is a misread; otherwise readings are compared as each side decodes them.
 */
export function probeBatch(
  writer: BatchSide,
  reader: BatchSide,
  format: FormatId,
  form: BatchForm,
  n = 40,
  seed = 7,
): ProbeResult {
  const write: { encode(): Uint8Array; sent(bytes: Uint8Array): unknown }[] = [];
  if (writer.maxReadings !== undefined) {
    const codec = batchCodecFor(writer.layout, format, form, writer.maxReadings);
    for (const b of generateBatches(writer.layout, n, writer.maxReadings, seed))
      write.push({ encode: () => codec.encode(b), sent: (bytes) => codec.decode(bytes) });
  } else {
    const codec = codecFor(writer.layout, format);
    for (const rec of generateSamples(writer.layout, n, seed))
      write.push({ encode: () => codec.encode(rec), sent: (bytes) => codec.decode(bytes) });
  }
  const read =
    reader.maxReadings !== undefined
      ? batchCodecFor(reader.layout, format, form, reader.maxReadings)
      : codecFor(reader.layout, format);
  const sameShape = (writer.maxReadings === undefined) === (reader.maxReadings === undefined);
  let refused = 0;
  let misread = 0;
  let tried = 0;
  const examples: string[] = [];
  for (const w of write) {
    let bytes: Uint8Array;
    try {
      bytes = w.encode();
    } catch {
      continue;
    }
    tried++;
    let got: unknown;
    try {
      got = read.decode(bytes);
    } catch (e) {
      refused++;
      if (examples.length < 3) examples.push(`${form} form: ${(e as Error).message}`);
      continue;
    }
    if (!sameShape || !sameDeep(w.sent(bytes), got)) {
      misread++;
      if (examples.length < 3)
        examples.push(`${form} form: a message read as ${sameShape ? "other readings" : "a message of another shape"}`);
    }
  }
  const verdict: Compat =
    misread > 0 || (tried > 0 && refused === tried) ? "breaking" : refused > 0 ? "degraded" : "compatible";
  return { verdict, samples: tried, examples };
}
